#pragma once
// The release and the source commit a binary was built from (`sassim --version`, the
// attributes of every results file). The commit reads "<hash>-modified" when the tree
// had uncommitted changes, "unknown" when it was built outside a git checkout.
#include <string_view>

namespace sassim {

std::string_view version();
std::string_view git_commit();

}  // namespace sassim
