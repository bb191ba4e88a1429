// The text of a progress report: share done from kernels and the running kernel's CTAs,
// rates, and the estimate of the time left.
#include "sim/cli/progress.h"

#include <gtest/gtest.h>

namespace sassim::cli {
namespace {

sim::ProgressEvent event(std::uint64_t kernels_done, std::uint64_t kernels_total) {
  sim::ProgressEvent e;
  e.kernels_done = kernels_done;
  e.kernels_total = kernels_total;
  e.cycle = 51200;
  e.warp_insts = 2'400'000;
  return e;
}

TEST(ProgressLine, KernelsAndCtasGiveTheShareAndTheTimeLeft) {
  traces::KernelInfo info;
  info.id = 13;
  sim::ProgressEvent e = event(12, 100);
  e.current = &info;
  e.ctas_done = 33;
  e.ctas_total = 132;
  // 12.25 of 100 kernels in 2 s: 87.75 left at 6.125 kernels/s = 14.33 s.
  EXPECT_EQ(Progress::line(e, 2.0),
            "12/100 kernels (12.2%) | kernel 13: 33/132 CTAs | cycle 51200 | "
            "1.2M warp insts/s | ETA 14s");
}

TEST(ProgressLine, BetweenKernelsTheShareIsKernelsAlone) {
  // 1 of 4 in 40 s: 120 s left.
  EXPECT_EQ(Progress::line(event(1, 4), 40.0),
            "1/4 kernels (25.0%) | cycle 51200 | 60K warp insts/s | ETA 2m00s");
}

TEST(ProgressLine, HoursAndMinutes) {
  // 1 of 1000 in 20 s: 19,980 s left = 5 h 33 m.
  EXPECT_EQ(Progress::line(event(1, 1000), 20.0),
            "1/1000 kernels (0.1%) | cycle 51200 | 120K warp insts/s | ETA 5h33m");
}

TEST(ProgressLine, NoEstimateBeforeAnythingIsDoneOrWithoutATotal) {
  EXPECT_EQ(Progress::line(event(0, 10), 3.0),
            "0/10 kernels (0.0%) | cycle 51200 | 800K warp insts/s");
  EXPECT_EQ(Progress::line(event(7, 0), 3.0), "7 kernels | cycle 51200 | 800K warp insts/s");
  EXPECT_EQ(Progress::line(event(0, 0), 0.0), "0 kernels | cycle 51200 | 0 warp insts/s");
}

}  // namespace
}  // namespace sassim::cli
