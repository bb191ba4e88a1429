// A sweep spec is checked completely when it is loaded, and each problem is reported
// with the place in the file where it is written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "ground/error.h"
#include "sweep/sweep_plan.h"
#include "sweep_test_support.h"

namespace sassim::sweep::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class SpecErrors : public ::testing::Test {
 protected:
  // The spec text with its first two lines (base config and trace) filled in.
  std::string spec(const std::string& rest) const {
    return "base_config: \"gtx1080\"\ntrace: \"" + repo_path(kVectorAdd).string() + "\"\n" + rest;
  }
  // Loads `text` as a spec file and returns the error it raises ("" when none).
  std::string error_of(const std::string& text) {
    write_file(file(), text);
    try {
      load_sweep_plan(file(), dir_.path() / "out");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  fs::path file() const { return dir_.path() / "spec.txtpb"; }
  // "spec.txtpb:LINE:COLUMN" of the first `token` on line `line` of `text`.
  std::string at(const std::string& text, int line, const std::string& token) const {
    std::istringstream lines(text);
    std::string content;
    for (int i = 0; i < line; ++i) std::getline(lines, content);
    return file().string() + ":" + std::to_string(line) + ":" +
           std::to_string(content.find(token) + 1);
  }

  TempDir dir_{"spec"};
};

TEST_F(SpecErrors, UnknownFieldPointsAtItsNameAndListsTheFields) {
  const std::string text = spec("axes { path: \"num_sms\" values: [\"2\"] }\n");
  EXPECT_THAT(error_of(text), AllOf(HasSubstr(file().string() + ":3:1: "), HasSubstr("\"axes\""),
                                    HasSubstr("base_config, trace, axis, point, output, slurm")));
}

TEST_F(SpecErrors, UnknownNestedFieldPointsAtItsName) {
  const std::string text = spec("axis { path: \"num_sms\" valus: [\"2\"] }\n");
  EXPECT_THAT(error_of(text), AllOf(HasSubstr(at(text, 3, "valus") + ": "), HasSubstr("\"valus\""),
                                    HasSubstr("fields: path, values")));
}

TEST_F(SpecErrors, SampleModeMustBeKnown) {
  const std::string text = spec("sample: \"waves\"\n");
  EXPECT_THAT(
      error_of(text),
      AllOf(HasSubstr(at(text, 3, "sample") + ": "),
            HasSubstr("sample = \"waves\": expected \"off\", \"kernels\", \"ctas\" or \"all\"")));
  for (const char* mode : {"off", "kernels", "ctas", "all"}) {
    EXPECT_EQ(error_of(spec(fmt::format("sample: \"{}\"\n", mode))), "") << mode;
  }
}

TEST_F(SpecErrors, SyntaxErrorHasItsPosition) {
  EXPECT_THAT(error_of(spec("axis { path: \"num_sms\"\n")), HasSubstr(file().string() + ":4:"));
}

TEST_F(SpecErrors, AxisPathThatNamesNoFieldIsRejectedWhereItsValueIs) {
  const std::string text = spec("axis { path: \"sm.nosuch\" values: [\"1\"] }\n");
  EXPECT_THAT(error_of(text),
              AllOf(HasSubstr(at(text, 3, "\"1\"") + ": "), HasSubstr("no field 'nosuch'")));
}

TEST_F(SpecErrors, AxisValueThatDoesNotParseIsRejectedWhereItIs) {
  const std::string text = spec("axis {\n  path: \"num_sms\"\n  values: [\"2\", \"many\"]\n}\n");
  EXPECT_THAT(error_of(text), AllOf(HasSubstr(at(text, 5, "\"many\"") + ": "),
                                    HasSubstr("expected an unsigned integer, got 'many'")));
}

TEST_F(SpecErrors, EnumAndMapValuesAreChecked) {
  EXPECT_THAT(error_of(spec("axis { path: \"sm.opcode_latency_cycles\" values: [\"4\"] }\n")),
              HasSubstr("is a map"));
  EXPECT_EQ(error_of(spec("axis { path: \"sm.opcode_latency_cycles.IMAD\" values: [\"4\"] }\n")),
            "");
}

TEST_F(SpecErrors, ValueOutsideTheFieldsRangeIsRejectedBeforeAnythingRuns) {
  EXPECT_THAT(error_of(spec("axis { path: \"num_sms\" values: [\"2\", \"0\"] }\n")),
              AllOf(HasSubstr("config point num_sms=0"), HasSubstr("num_sms")));
}

TEST_F(SpecErrors, UnknownRegistryNameIsRejectedBeforeAnythingRuns) {
  EXPECT_THAT(
      error_of(spec("axis { path: \"sm.scheduler.policy\" values: [\"gto\", \"lrx\"] }\n")),
      HasSubstr("config point sm.scheduler.policy=lrx: sm.scheduler.policy = \"lrx\" is not one "
                "of: gto, gty, lrr, two_level (did you mean \"lrr\"?)"));
}

TEST_F(SpecErrors, PointAssignmentsAreChecked) {
  const std::string text = spec("point { set: [\"num_sms=2\", \"num_sms\"] }\n");
  EXPECT_THAT(error_of(text), AllOf(HasSubstr(at(text, 3, "\"num_sms\"") + ": "),
                                    HasSubstr("expected path=value")));
}

TEST_F(SpecErrors, EveryProblemIsListed) {
  const std::string text = spec(
      "axis { path: \"num_sms\" values: [\"x\"] }\naxis { path: \"sm.bogus\" values: [\"1\"] }\n");
  EXPECT_THAT(error_of(text), AllOf(HasSubstr(at(text, 3, "\"x\"")),
                                    HasSubstr(at(text, 4, "\"1\"")), HasSubstr("'bogus'")));
}

TEST_F(SpecErrors, RepeatedAxesValuesAndPointsAreRejected) {
  EXPECT_THAT(error_of(spec("axis { path: \"num_sms\" values: [\"2\"] }\n"
                            "axis { path: \"num_sms\" values: [\"4\"] }\n")),
              HasSubstr("axis \"num_sms\" is given twice"));
  EXPECT_THAT(error_of(spec("axis { path: \"num_sms\" values: [\"2\", \"2\"] }\n")),
              HasSubstr("lists value \"2\" twice"));
  EXPECT_THAT(error_of(spec("axis { path: \"num_sms\" }\n")), HasSubstr("has no values"));
  EXPECT_THAT(error_of(spec("point { set: \"num_sms=2\" }\npoint { set: \"num_sms=2\" }\n")),
              HasSubstr("is the same as the one at " + file().string() + ":3:1"));
}

TEST_F(SpecErrors, BaseConfigAndTracesMustExist) {
  EXPECT_THAT(error_of("trace: \"" + repo_path(kVectorAdd).string() + "\"\n"),
              HasSubstr("base_config is required"));
  EXPECT_THAT(error_of("base_config: \"nosuchpreset\"\ntrace: \"" + repo_path(kVectorAdd).string() +
                       "\"\n"),
              AllOf(HasSubstr(file().string() + ":1:1: base_config"),
                    HasSubstr("unknown preset 'nosuchpreset'")));
  EXPECT_THAT(error_of("base_config: \"gtx1080\"\n"), HasSubstr("no trace"));
  EXPECT_THAT(error_of("base_config: \"gtx1080\"\ntrace: \"no/such/trace\"\n"),
              AllOf(HasSubstr(file().string() + ":2:1: trace \"no/such/trace\""),
                    HasSubstr((dir_.path() / "no/such/trace").string())));
  EXPECT_THAT(error_of(spec("trace: \"" + repo_path(kVectorAdd).string() + "\"\n")),
              HasSubstr("listed twice"));
}

TEST_F(SpecErrors, OutputFolderIsRequiredWithoutOut) {
  write_file(file(), spec(""));
  try {
    load_sweep_plan(file());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("no output folder"));
  }
  write_file(file(), spec("output: \"results\"\n"));
  EXPECT_EQ(load_sweep_plan(file()).output, dir_.path() / "results");
  EXPECT_EQ(load_sweep_plan(file(), dir_.path() / "elsewhere").output, dir_.path() / "elsewhere");
}

TEST_F(SpecErrors, RelativePathsAreRelativeToTheSpecFile) {
  fs::create_directories(dir_.path() / "configs");
  write_file(dir_.path() / "configs/base.txtpb", "base: \"gtx1080\"\nnum_sms: 3\n");
  write_file(file(), "base_config: \"configs/base.txtpb\"\ntrace: \"" +
                         fs::relative(repo_path(kVectorAdd), dir_.path()).string() +
                         "\"\noutput: \"o\"\n");
  const SweepPlan plan = load_sweep_plan(file());
  EXPECT_EQ(plan.base_config_arg, (dir_.path() / "configs/base.txtpb").string());
  EXPECT_EQ(plan.points.at(0).config.num_sms(), 3u);
  EXPECT_EQ(plan.traces.at(0).path, repo_path(kVectorAdd).lexically_normal());
}

}  // namespace
}  // namespace sassim::sweep::test
