#include "sim/cli/listing_match.h"

#include <set>
#include <string>

#include <fmt/format.h>

#include "ground/display_name.h"

namespace sassim::cli {

void report_listing_matches(const std::vector<traces::sass::Listing>& listings,
                            traces::Workload& workload, std::FILE* notes) {
  std::vector<std::string> names;  // of every launch, in launch order
  while (std::optional<traces::Command> command = workload.next()) {
    if (auto* launch = std::get_if<traces::KernelLaunch>(&*command)) {
      names.push_back(launch->kernel->info().name);
    }
  }
  std::vector<bool> taken(names.size(), false);
  for (const traces::sass::Listing& listing : listings) {
    std::size_t launches = 0;
    std::set<std::string> kernels;
    for (std::size_t i = 0; i < names.size(); ++i) {
      // The first listing naming a kernel gives its control bits (sim/control_bits.h).
      if (taken[i] || listing.find(names[i]) == nullptr) continue;
      taken[i] = true;
      ++launches;
      kernels.insert(kernel_display_name(names[i], 40));
    }
    if (launches == 0) {
      fmt::print(stderr,
                 "sassim: warning: {}: none of the trace's {} launch(es) is one of its {} "
                 "function(s); they run by the register scoreboard\n",
                 listing.origin, names.size(), listing.functions.size());
      continue;
    }
    std::string shown;
    std::size_t n = 0;
    for (const std::string& k : kernels) {
      if (n++ == 5) {
        shown += fmt::format(", and {} more", kernels.size() - 5);
        break;
      }
      shown += (shown.empty() ? "" : ", ") + k;
    }
    fmt::print(notes, "listing {}: control bits for {} of {} launches ({})\n", listing.origin,
               launches, names.size(), shown);
  }
}

}  // namespace sassim::cli
