#pragma once
// SASS listings kept inside a trace folder (FOLDER/sass/*.sass), so that the folder replays
// by its kernels' control bits wherever it is copied: `sassim workload` stores the listings
// its launches ran, and `sassim run FOLDER` (and so a sweep over it) uses them without a
// `--sass` per listing (docs/LLM.md).
#include <filesystem>
#include <string_view>
#include <vector>

namespace sassim::traces {

inline constexpr std::string_view kListingsFolder = "sass";

// Copies each listing into FOLDER/sass/ under its file name, in place of the listings kept
// there before. Two listings of one file name
// and different contents are an error naming both; so is a file that cannot be copied (with
// the system's reason). Throws sassim::Error.
void store_listings(const std::filesystem::path& folder,
                    const std::vector<std::filesystem::path>& listings);

// The listings kept in the folder of `trace` (a folder, its kernelslist.g or one of its
// kernel files), sorted by file name; empty when it keeps none.
std::vector<std::filesystem::path> stored_listings(const std::filesystem::path& trace);

}  // namespace sassim::traces
