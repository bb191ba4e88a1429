#pragma once
// What `sassim run --sass LISTING...` will do, said before simulating: for each listing,
// how many of the workload's launches run by its control bits and which kernels, or a
// warning naming the listing when it holds none of the workload's kernels (a listing of
// another program, or of another build of it).
#include <cstdio>
#include <vector>

#include "traces/kernel_trace.h"
#include "traces/sass/listing.h"

namespace sassim::cli {

// Reads the launches' headers from `workload` (which is then used up; no CTA is read).
void report_listing_matches(const std::vector<traces::sass::Listing>& listings,
                            traces::Workload& workload, std::FILE* notes);

}  // namespace sassim::cli
