// Reading the simulated side: results files and sweep tables, and their errors.
#include "sim/correlate/sim_results.h"

#include <H5Cpp.h>
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include "correlate_fixtures.h"

namespace sassim::correlate {
namespace {

using testing::error_of;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class SimResults : public testing::ScratchDir {};

TEST_F(SimResults, NotHdf5) {
  const std::string file = write("r.h5", "kernel,cycles\n");
  EXPECT_THAT(error_of([&] { read_sim_results(file); }),
              StartsWith(file + ": not an HDF5 file; expected a results file written by "
                                "`sassim run --out FILE.h5`"));
  EXPECT_EQ(error_of([] { read_sim_results("/no/such.h5"); }), "/no/such.h5: no such file");
}

TEST_F(SimResults, HdfWithoutKernelsTable) {
  const std::string file = (dir_ / "empty.h5").string();
  { H5::H5File h5(file, H5F_ACC_TRUNC); }
  EXPECT_THAT(error_of([&] { read_sim_results(file); }), StartsWith(file + ": no /kernels table"));
}

TEST_F(SimResults, SweepTableRuns) {
  const std::string file =
      write("sweep.csv",
            "run_id,trace,kernel_id,kernel_name,sm.scheduler.policy,cycles,warp_instructions,ipc\n"
            "0,t/a,1,_Z1kv,gto,100,10,0.1\n"
            "0,t/a,2,_Z1kv,gto,120,10,0.1\n"
            "1,t/a,1,_Z1kv,lrr,90,10,0.1\n");
  EXPECT_EQ(error_of([&] { read_sim_results(file); }),
            file + ": the table holds 2 runs (0, 1); choose one with --run");
  const SimRun run = read_sim_results(file, "0");
  ASSERT_EQ(run.kernels.size(), 2U);
  EXPECT_EQ(run.kernels[1].cycles, 120);
  EXPECT_EQ(run.kernels[1].id, 2U);
  EXPECT_EQ(run.trace, "t/a");
  EXPECT_EQ(read_sim_results(file, "1").kernels.at(0).cycles, 90);
  EXPECT_THAT(error_of([&] { read_sim_results(file, "7"); }), HasSubstr("no run_id 7"));
  const std::string bad = write("bad.csv", "run_id,trace,kernel_id,kernel_name\n");
  EXPECT_THAT(error_of([&] { read_sim_results(bad); }),
              StartsWith(bad + ":1: the header has no \"cycles\" column"));
}

}  // namespace
}  // namespace sassim::correlate
