// Bad input never crashes and never escapes as anything but sassim::Error: seeded
// mutations (bit flips, cut and repeated spans, numbers made huge, negative or
// non-numeric, truncation) of real inputs of each parser: a kernel trace read to its
// last instruction, a preset, a SASS listing, a sweep spec, an Nsight Compute CSV and a
// results file of `sassim run --out` read as correlate and the sweep merge read it.
// Each case is reproducible from its seed, which a failure names.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "correlate/hw_import.h"
#include "correlate/sim_results.h"
#include "ground/error.h"
#include "multigpu/system_run.h"
#include "sim/gpu.h"
#include "sim/hdf5_writer.h"
#include "sweep/sweep_plan.h"
#include "system/system_config_loader.h"
#include "traces/accelsim_reader.h"
#include "traces/sass/listing.h"
#include "traces/text_trace.h"
#include "traces/warp_stream.h"

namespace sassim {
namespace {

namespace fs = std::filesystem;

constexpr int kCasesPerInput = 2000;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One to three mutations of `text`, chosen by `seed`.
std::string mutate(std::string text, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
  const int rounds = 1 + static_cast<int>(rng() % 3);
  for (int r = 0; r < rounds && !text.empty(); ++r) {
    const std::size_t at = pick(text.size());
    switch (rng() % 6) {
      case 0:  // a flipped bit
        text[at] = static_cast<char>(text[at] ^ static_cast<char>(1 << (rng() % 8)));
        break;
      case 1:  // a span cut out
        text.erase(at, 1 + pick(std::min<std::size_t>(text.size() - at, 200)));
        break;
      case 2: {  // a span repeated
        const std::size_t n = 1 + pick(std::min<std::size_t>(text.size() - at, 200));
        text.insert(at, text.substr(at, n));
        break;
      }
      case 3: {  // the digits there replaced
        static const char* const kNumbers[] = {"0",          "-1",    "4294967296",
                                               "2147483648", "1e308", "18446744073709551616",
                                               "0x",         "nan",   "99999999999999999999"};
        std::size_t end = at;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
        text.replace(at, end - at, kNumbers[pick(std::size(kNumbers))]);
        break;
      }
      case 4:  // cut short
        text.resize(at);
        break;
      default:  // a stray character
        text.insert(at, 1, "\"{}=,()\n\t\\#-"[pick(13)]);
        break;
    }
  }
  return text;
}

// Runs `parse` on mutations of `original`; anything thrown must be sassim::Error.
void fuzz(const std::string& what, const std::string& original, std::uint64_t base_seed,
          const std::function<void(const std::string&)>& parse) {
  int errors = 0;
  for (int i = 0; i < kCasesPerInput; ++i) {
    const std::uint64_t seed = base_seed + static_cast<std::uint64_t>(i);
    const std::string text = mutate(original, seed);
    try {
      parse(text);
    } catch (const Error&) {
      ++errors;
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ", seed " << seed << ": " << typeid(e).name() << ": " << e.what();
    }
  }
  // The mutations reach the checks: most inputs they make are refused.
  EXPECT_GT(errors, kCasesPerInput / 4) << what;
}

fs::path repo(const std::string& relative) {
  return fs::path(SASSIM_SOURCE_DIR) / relative;
}

class Fuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("sassim-fuzz-{}", ::testing::UnitTest::GetInstance()->random_seed());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  fs::path dir_;
};

void read_whole_kernel(const std::string& text) {
  auto kernel = traces::kernel_from_text(text, "fuzz.traceg");
  while (std::optional<traces::CtaTrace> cta = kernel->next_cta()) {
    for (traces::WarpStream& stream : cta->warps) {
      traces::WarpWindow window(std::move(stream));
      for (std::uint32_t i = 0; i < window.size(); ++i) window.inst(i);
    }
  }
}

TEST_F(Fuzz, KernelTraces) {
  // A real GTX 1080 trace (tracer 3: memory widths, address lists) and a written one.
  const std::string real = read(
      repo("traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace/"
           "kernel-1.traceg"));
  ASSERT_FALSE(real.empty());
  fuzz("gtx1080 vectoradd trace", real, 500, read_whole_kernel);
  const std::string trace = read(repo("tests/data/traces/small_workload/kernel-1.traceg"));
  ASSERT_FALSE(trace.empty());
  fuzz("kernel trace", trace, 1000, [](const std::string& text) {
    auto kernel = traces::kernel_from_text(text, "fuzz.traceg");
    while (std::optional<traces::CtaTrace> cta = kernel->next_cta()) {
      for (traces::WarpStream& stream : cta->warps) {
        traces::WarpWindow window(std::move(stream));
        for (std::uint32_t i = 0; i < window.size(); ++i) window.inst(i);
      }
    }
  });
}

// A multi-GPU trace (tests/data/traces/system_small): its ranks.g and a rank's list with
// collective lines, each mutated, planned on h200x8 (ranks, collectives, their matching).
TEST_F(Fuzz, MultiGpuTraces) {
  const fs::path original = repo("tests/data/traces/system_small");
  const fs::path sys = dir_ / "sys";
  fs::copy(original, sys, fs::copy_options::recursive);
  const system::SystemModel model(system::load_system_config("h200x8"));
  auto plan = [&](const std::string&) { multigpu::plan_system_run(sys, model); };
  const std::string ranks = read(original / "ranks.g");
  const std::string list = read(original / "rank-0/kernelslist.g");
  ASSERT_FALSE(ranks.empty());
  ASSERT_FALSE(list.empty());
  fuzz("ranks.g", ranks, 7000, [&](const std::string& text) {
    std::ofstream(sys / "ranks.g", std::ios::binary) << text;
    plan(text);
  });
  std::ofstream(sys / "ranks.g", std::ios::binary) << ranks;
  fuzz("kernelslist.g with collectives", list, 8000, [&](const std::string& text) {
    std::ofstream(sys / "rank-0/kernelslist.g", std::ios::binary) << text;
    plan(text);
  });
}

TEST_F(Fuzz, Presets) {
  const std::string preset = read(repo("configs/presets/a100.txtpb"));
  ASSERT_FALSE(preset.empty());
  fuzz("preset", preset, 2000,
       [&](const std::string& text) { config::load_config(write("a.txtpb", text).string()); });
}

TEST_F(Fuzz, SassListings) {
  const std::string listing = read(repo("kernels/sass/sm_80/vectoradd.sass"));
  ASSERT_FALSE(listing.empty());
  fuzz("listing", listing, 3000,
       [](const std::string& text) { traces::sass::parse_listing(text, "fuzz.sass"); });
}

TEST_F(Fuzz, SweepSpecs) {
  const std::string trace =
      repo("traces/reference/gtx1080-microgpusim/test-apps/vectoradd/traces/vectoradd-100-32-trace")
          .string();
  const std::string spec = fmt::format(
      "base_config: \"gtx1080\"\ntrace: \"{}\"\naxis {{ path: \"sm.scheduler.policy\" values: "
      "[\"gto\", \"lrr\"] }}\naxis {{ path: \"l1.hit_latency_cycles\" values: [\"52\", \"104\"] "
      "}}\npoint {{ set: [\"num_sms=1\"] }}\noutput: \"out\"\nslurm {{ time_limit: \"00:30:00\" "
      "memory: \"2G\" max_concurrent: 16 }}\n",
      trace);
  fuzz("sweep spec", spec, 4000, [&](const std::string& text) {
    sweep::load_sweep_plan(write("spec.txtpb", text), dir_ / "out");
  });
}

TEST_F(Fuzz, NsightComputeCsv) {
  const std::string csv = read(repo(
      "tests/data/hw/gtx1080-microgpusim/profile/tests/nsight_vectoradd_100_32_metrics_all.csv"));
  ASSERT_FALSE(csv.empty());
  fuzz("ncu csv", csv, 5000, [&](const std::string& text) {
    correlate::import_hw_file(write("ncu.csv", text).string(), {});
  });
}

TEST_F(Fuzz, ResultsFiles) {
  // The bundled two-kernel workload on v100, written as `sassim run --out` writes it.
  const std::string trace = repo("tests/data/traces/small_workload").string();
  const config::GpuConfig config = config::load_config("v100");
  sim::Gpu gpu(config);
  const std::vector<sim::KernelResult> results = gpu.run(*traces::open_accelsim_workload(trace));
  const fs::path file = dir_ / "results.h5";
  sim::write_hdf5(file, sim::RunInfo{trace, "v100", config::to_text(config), config.num_sms()},
                  results);
  const std::string original = read(file);
  ASSERT_FALSE(original.empty());
  ASSERT_EQ(correlate::read_sim_results(file.string()).kernels.size(), 2u);  // whole, it reads
  fuzz("results file", original, 6000, [&](const std::string& bytes) {
    correlate::read_sim_results(write("r.h5", bytes).string());
  });
}

}  // namespace
}  // namespace sassim
