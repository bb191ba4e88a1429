// --format json|csv: escapes, numbers that read back exactly, and the run's records.
#include "sim/cli/output_format.h"

#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "sim/cli/run_output.h"

namespace sassim::cli {
namespace {

TEST(OutputFormat, NamesAreTableJsonCsv) {
  EXPECT_EQ(parse_format("table"), Format::kTable);
  EXPECT_EQ(parse_format("json"), Format::kJson);
  EXPECT_EQ(parse_format("csv"), Format::kCsv);
  EXPECT_FALSE(parse_format("JSON"));
  EXPECT_FALSE(parse_format(""));
}

TEST(OutputFormat, UnknownFormatIsAParseErrorNamingTheAcceptedOnes) {
  CLI::App app;
  Format format = Format::kTable;
  add_format_option(app, format);
  try {
    app.parse("--format xml", false);
    FAIL() << "--format xml parsed";
  } catch (const CLI::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown format 'xml' (accepted: table, json, csv)"),
              std::string::npos)
        << e.what();
    EXPECT_NE(e.get_exit_code(), 0);
  }
  app.parse("--format csv", false);
  EXPECT_EQ(format, Format::kCsv);
}

TEST(OutputFormat, JsonStringsAreEscaped) {
  EXPECT_EQ(json_quote("plain"), "\"plain\"");
  EXPECT_EQ(json_quote("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\nd\\te\"");
  EXPECT_EQ(json_quote(std::string("\x01", 1)), "\"\\u0001\"");
}

TEST(OutputFormat, JsonNumbersReadBackExactly) {
  for (const double v : {0.1, 1.0 / 3.0, 123456789.0, 1e300, 5e-324, 0.0}) {
    const std::string text = json_number(v);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
  }
  EXPECT_EQ(json_number(std::nan("")), "null");
  EXPECT_EQ(json_number(HUGE_VAL), "null");
}

TEST(OutputFormat, CsvQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(csv_field("_Z6KernelP4Node"), "_Z6KernelP4Node");
  EXPECT_EQ(csv_field("f(int, float)"), "\"f(int, float)\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

TEST(OutputFormat, RecordsAsJsonAndCsv) {
  const Record r = {{"id", std::uint64_t{3}},
                    {"name", std::string("k, 1")},
                    {"delta", std::int64_t{-2}},
                    {"rate", 0.25},
                    {"ok", true},
                    {"mix", JsonText{"{\"FFMA\": 2}"}}};
  EXPECT_EQ(json_object(r),
            "{\"id\": 3, \"name\": \"k, 1\", \"delta\": -2, \"rate\": 0.25, \"ok\": true, "
            "\"mix\": {\"FFMA\": 2}}");
  EXPECT_EQ(csv_header(r), "id,name,delta,rate,ok");
  EXPECT_EQ(csv_row(r), "3,\"k, 1\",-2,0.25,true");
}

TEST(RunOutput, KernelRecordsHaveTheResultsFileColumns) {
  sim::KernelResult r;
  r.info.id = 7;
  r.info.name = "_Z3fooi";
  r.cycles = 1000;
  r.warp_insts = 250;
  r.ipc = 0.25;
  EXPECT_EQ(csv_header(kernel_record(r)),
            "id,name,grid_x,grid_y,grid_z,block_x,block_y,block_z,start_cycle,cycles,"
            "warp_instructions,ipc,l1_hit_rate,l2_hit_rate,dram_bytes,dram_gbps,"
            "tensor_utilisation,tensor_tflops,host_seconds,sampled,simulated_warp_instructions,"
            "cycles_ci95_pct,energy_j,avg_power_w,energy_per_flop_j,energy_per_dram_byte_j,"
            "bound_by,sol_tensor_pct,sol_fp32_pct,sol_fp16_pct,sol_fp64_pct,"
            "sol_int_pct,sol_issue_pct,sol_l1_pct,sol_l2_pct,sol_dram_pct,sol_tensor_f16_pct,"
            "sol_tensor_bf16_pct,sol_tensor_tf32_pct,sol_tensor_fp8_pct,sol_tensor_int8_pct,"
            "sol_tensor_int4_pct,sol_tensor_fp64_pct,sol_tensor_binary_pct,arithmetic_intensity");
  // Energy not modelled (no energy section): NaN, which csv writes as nan and json as null.
  EXPECT_EQ(csv_row(kernel_record(r)),
            "7,_Z3fooi,1,1,1,1,1,1,0,1000,250,0.25,0,0,0,0,0,0,0,0,0,0,nan,nan,nan,nan,none,0,0,"
            "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
  r.energy.modelled = true;
  r.energy.joules[static_cast<std::size_t>(sim::EnergyPart::kDram)] = 0.5;
  r.energy.total_j = 2;
  r.energy.avg_power_w = 400;
  const std::string json = json_object(kernel_record(r));
  EXPECT_NE(json.find("\"energy_j\": 2, \"avg_power_w\": 400, \"energy_per_flop_j\": 0, "
                      "\"energy_per_dram_byte_j\": 0, \"bound_by\": \"none\""),
            std::string::npos)
      << json;
  // The split by component comes last, in JSON only.
  EXPECT_NE(json.find("\"arithmetic_intensity\": 0, \"energy_split_j\": {\"instructions\": 0, "
                      "\"tensor\": 0, \"register_file\": 0, \"l1\": 0, \"shared\": 0, \"l2\": 0, "
                      "\"interconnect\": 0, \"dram\": 0.5, \"sm_static\": 0, \"sm_idle\": 0, "
                      "\"chip_static\": 0}}"),
            std::string::npos)
      << json;
  EXPECT_EQ(csv_header(kernel_record(r)).find("energy_split"), std::string::npos);
}

TEST(RunOutput, JsonDocumentOfNoKernels) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  print_results_json(f, RunHeader{"t", "a100", false, std::nullopt}, {});
  std::rewind(f);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  EXPECT_EQ(text,
            "{\n  \"trace\": \"t\",\n  \"config_name\": \"a100\",\n  \"partial\": false,\n"
            "  \"kernels\": [],\n  \"total\": {\"kernels\": 0, \"cycles\": 0, "
            "\"warp_instructions\": 0, \"ipc\": 0, \"l1_hit_rate\": 0, \"l2_hit_rate\": 0, "
            "\"dram_bytes\": 0, \"host_seconds\": 0}\n}\n");
}

}  // namespace
}  // namespace sassim::cli
