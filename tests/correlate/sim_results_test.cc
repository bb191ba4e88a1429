// Reading the simulated side: results files and sweep tables, and their errors.
#include "correlate/sim_results.h"

#include <H5Cpp.h>
#include <gtest/gtest.h>

#include <gmock/gmock.h>

#include "correlate_fixtures.h"
#include "ground/file_seal.h"

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
  EXPECT_THAT(error_of([&] { read_sim_results(file); }),
              StartsWith(file + ": no seal in its first 512 bytes"));
  {
    H5::FileCreatPropList create;
    create.setUserblock(kSealBytes);
    H5::H5File h5(file, H5F_ACC_TRUNC, create);
  }
  write_seal(file);
  EXPECT_THAT(error_of([&] { read_sim_results(file); }), StartsWith(file + ": no /kernels table"));
}

// The merged layout of `sassim sweep`: run identification, swept parameters, the
// /kernels columns, counters.
const char* const kSweepCsv =
    "run_index,run_id,trace,sm.scheduler.policy,l2.hit_latency_cycles,kernel_id,kernel_name,"
    "cycles,warp_instructions,ipc,gpu.sm[0].warp_insts\n"
    "0,aa,t/a,gto,100,1,_Z1kv,100,10,0.1,10\n"
    "0,aa,t/a,gto,100,2,_Z1kv,120,10,0.1,10\n"
    "1,bb,t/b,gto,100,1,_Z1mv,50,10,0.2,10\n"
    "2,cc,t/a,lrr,100,1,_Z1kv,90,10,0.1,10\n"
    "3,dd,t/b,lrr,100,1,_Z1mv,55,10,0.2,10\n";

TEST_F(SimResults, SweepTableRunsAndPoints) {
  const std::string file = write("sweep.csv", kSweepCsv);
  SweepSelection run_aa{"aa", {}};
  const SimRun run = read_sim_results(file, run_aa);
  ASSERT_EQ(run.kernels.size(), 2U);
  EXPECT_EQ(run.kernels[1].cycles, 120);
  EXPECT_EQ(run.kernels[1].id, 2U);
  EXPECT_EQ(run.trace, "t/a");
  EXPECT_EQ(run.config_name, "sweep point sm.scheduler.policy=gto, l2.hit_latency_cycles=100");
  // A config point: every trace's run of it, in table order.
  const SimRun lrr = read_sim_results(file, {"", {"sm.scheduler.policy=lrr"}});
  ASSERT_EQ(lrr.kernels.size(), 2U);
  EXPECT_EQ(lrr.kernels[0].cycles, 90);
  EXPECT_EQ(lrr.kernels[1].cycles, 55);
  EXPECT_EQ(lrr.trace, "t/a, t/b");
  // Numbers compare as numbers.
  EXPECT_EQ(read_sim_results(file, {"", {"sm.scheduler.policy=gto", "l2.hit_latency_cycles=100.0"}})
                .kernels.size(),
            3U);
}

TEST_F(SimResults, SweepSelectionErrors) {
  const std::string file = write("sweep.csv", kSweepCsv);
  EXPECT_EQ(error_of([&] { read_sim_results(file); }),
            file +
                ": 2 runs of trace t/a remain (aa, cc); choose one config point with --point "
                "PATH=VALUE (swept: sm.scheduler.policy, l2.hit_latency_cycles) or a run with "
                "--run");
  EXPECT_EQ(error_of([&] {
              read_sim_results(file, {"zz", {}});
            }),
            file + ": no row matches the selection (--run, --point)");
  EXPECT_EQ(error_of([&] {
              read_sim_results(file, {"", {"cycles=5"}});
            }),
            file +
                ": --point cycles=5: expected PATH=VALUE with PATH a swept parameter "
                "(sm.scheduler.policy, l2.hit_latency_cycles)");
  const std::string bad = write("bad.csv", "run_id,trace,kernel_id,kernel_name\n");
  EXPECT_THAT(error_of([&] { read_sim_results(bad); }),
              StartsWith(bad + ":1: the header has no \"cycles\" column"));
  const std::string h5 = (dir_ / "x.h5").string();
  EXPECT_EQ(error_of([&] {
              read_sim_results(h5, {"aa", {}});
            }),
            h5 + ": --run and --point select rows of a sweep table (.csv); a results file holds "
                 "one run");
}

}  // namespace
}  // namespace sassim::correlate
