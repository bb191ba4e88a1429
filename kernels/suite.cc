#include "kernels/suite.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "kernels/bf16_gemm_wgmma.h"
#include "kernels/bf16_gemm_ws.h"
#include "kernels/decode_attention.h"
#include "kernels/decode_attention_tc.h"
#include "kernels/flash_attention.h"
#include "kernels/fp8_gemm_wgmma.h"
#include "kernels/gemm_epilogue.h"
#include "kernels/hgemm_mma.h"
#include "kernels/kv_append.h"
#include "kernels/moe_gather.h"
#include "kernels/moe_grouped_gemm.h"
#include "kernels/moe_routing.h"
#include "kernels/pointer_chase.h"
#include "kernels/prefill_attention.h"
#include "kernels/reduction.h"
#include "kernels/rmsnorm.h"
#include "kernels/rope.h"
#include "kernels/saxpy.h"
#include "kernels/sgemm.h"
#include "kernels/skinny_gemm.h"
#include "kernels/spec_accept.h"
#include "kernels/spec_verify_attention.h"
#include "kernels/stream.h"
#include "kernels/swiglu.h"
#include "kernels/transpose.h"
#include "kernels/ubench/ubench.h"
#include "kernels/vector_add.h"

namespace sassim::kernels {
namespace {

constexpr std::string_view kKernels[] = {
    vector_add::kKernel,
    saxpy::kKernel,
    stream::kCopyKernel,
    stream::kTriadKernel,
    reduction::kKernel,
    transpose::kNaiveKernel,
    transpose::kSharedKernel,
    transpose::kPaddedKernel,
    pointer_chase::kGlobalKernel,
    pointer_chase::kSharedKernel,
    sgemm::kKernel,
    hgemm_mma::kKernel,
    bf16_gemm_wgmma::kKernel,
    flash_attention::kKernel,
    // The decode path of an LLM decoder layer.
    rmsnorm::kKernel,
    swiglu::kKernel,
    rope::kKernel,
    kv_append::kKernel,
    decode_attention::kKernel,
    decode_attention::kCombineKernel,
    decode_attention_tc::kKernel,
    gemm_epilogue::kCastKernel,
    gemm_epilogue::kResidualKernel,
    fp8_gemm_wgmma::kKernel,
    bf16_gemm_ws::kKernel,
    prefill_attention::kKernel,
    skinny_gemm::kKernels[0],
    skinny_gemm::kKernels[1],
    skinny_gemm::kKernels[2],
    skinny_gemm::kKernels[3],
    // The mixture-of-experts FFN.
    moe::kTopkKernel,
    moe::kAlignKernel,
    moe::kPermuteKernel,
    moe::kGroupedGemmKernel,
    moe::kUnpermuteKernel,
    // Speculative decoding: the verification step and the acceptance.
    spec_verify_attention::kKernel,
    spec_accept::kArgmaxKernel,
    spec_accept::kAcceptKernel,
};

}  // namespace

std::vector<SuiteEntry> parse_suite(std::string_view text, std::string_view origin) {
  std::vector<SuiteEntry> entries;
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    if (fields.empty()) continue;
    if (fields.size() < 3) {
      throw std::invalid_argument(std::string(origin) + ":" + std::to_string(number) +
                                  ": expected NAME BINARY KERNEL [VALUE...], found '" + line + "'");
    }
    SuiteEntry entry{.name = fields[0],
                     .binary = fields[1],
                     .kernel = fields[2],
                     .values = {fields.begin() + 3, fields.end()},
                     .line = number};
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<SuiteEntry> read_suite(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read the kernel suite list " + path.string());
  std::ostringstream text;
  text << file.rdbuf();
  return parse_suite(text.str(), path.string());
}

std::span<const std::string_view> suite_kernels() {
  return kKernels;
}

Launch describe_launch(std::string_view kernel, ParamValues values) {
  if (ubench::is_kernel(kernel)) return ubench::describe_launch(kernel, values);
  if (kernel == vector_add::kKernel) return vector_add::launch(vector_add::parse_problem(values));
  if (kernel == saxpy::kKernel) return saxpy::launch(saxpy::parse_problem(values));
  if (kernel == stream::kCopyKernel) return stream::copy_launch(stream::parse_problem(values));
  if (kernel == stream::kTriadKernel) return stream::triad_launch(stream::parse_problem(values));
  if (kernel == reduction::kKernel) return reduction::launch(reduction::parse_problem(values));
  if (kernel == transpose::kNaiveKernel || kernel == transpose::kSharedKernel ||
      kernel == transpose::kPaddedKernel) {
    return transpose::launch(kernel, transpose::parse_problem(values));
  }
  if (kernel == pointer_chase::kGlobalKernel || kernel == pointer_chase::kSharedKernel) {
    return pointer_chase::launch(kernel, pointer_chase::parse_problem(kernel, values));
  }
  if (kernel == sgemm::kKernel) return sgemm::launch(sgemm::parse_problem(values));
  if (kernel == hgemm_mma::kKernel) return hgemm_mma::launch(hgemm_mma::parse_problem(values));
  if (kernel == bf16_gemm_wgmma::kKernel) {
    return bf16_gemm_wgmma::launch(bf16_gemm_wgmma::parse_problem(values));
  }
  if (kernel == fp8_gemm_wgmma::kKernel) {
    return fp8_gemm_wgmma::launch(fp8_gemm_wgmma::parse_problem(values));
  }
  if (kernel == bf16_gemm_ws::kKernel) {
    return bf16_gemm_ws::launch(bf16_gemm_ws::parse_problem(values));
  }
  if (kernel == flash_attention::kKernel) {
    return flash_attention::launch(flash_attention::parse_problem(values));
  }
  if (kernel == rmsnorm::kKernel) return rmsnorm::launch(rmsnorm::parse_problem(values));
  if (kernel == swiglu::kKernel) return swiglu::launch(swiglu::parse_problem(values));
  if (kernel == rope::kKernel) return rope::launch(rope::parse_problem(values));
  if (kernel == kv_append::kKernel) return kv_append::launch(kv_append::parse_problem(values));
  if (kernel == decode_attention::kKernel) {
    return decode_attention::launch(decode_attention::parse_problem(values));
  }
  if (kernel == decode_attention::kCombineKernel) {
    return decode_attention::combine_launch(decode_attention::parse_problem(values));
  }
  if (kernel == decode_attention_tc::kKernel) {
    return decode_attention_tc::launch(decode_attention::parse_problem(values));
  }
  if (kernel == gemm_epilogue::kCastKernel) {
    return gemm_epilogue::launch(gemm_epilogue::kCastKernel, gemm_epilogue::parse_problem(values));
  }
  if (kernel == gemm_epilogue::kResidualKernel) {
    return gemm_epilogue::launch(gemm_epilogue::kResidualKernel,
                                 gemm_epilogue::parse_problem(values));
  }
  if (kernel == prefill_attention::kKernel) {
    return prefill_attention::launch(prefill_attention::parse_problem(values));
  }
  if (skinny_gemm::rows_of(kernel) != 0) {
    return skinny_gemm::launch(skinny_gemm::parse_problem(kernel, values));
  }
  if (kernel == moe::kTopkKernel) return moe::topk_launch(moe::parse_routing(values, kernel));
  if (kernel == moe::kAlignKernel) return moe::align_launch(moe::parse_routing(values, kernel));
  if (kernel == moe::kPermuteKernel) return moe::permute_launch(moe::parse_gather(values, kernel));
  if (kernel == moe::kUnpermuteKernel) {
    return moe::unpermute_launch(moe::parse_gather(values, kernel));
  }
  if (kernel == moe::kGroupedGemmKernel) {
    return moe::grouped_gemm_launch(moe::parse_grouped_gemm(values));
  }
  if (kernel == spec_verify_attention::kKernel) {
    return spec_verify_attention::launch(spec_verify_attention::parse_problem(values));
  }
  if (kernel == spec_accept::kArgmaxKernel) {
    return spec_accept::argmax_launch(spec_accept::parse_argmax_problem(values));
  }
  if (kernel == spec_accept::kAcceptKernel) {
    return spec_accept::accept_launch(spec_accept::parse_accept_problem(values));
  }
  std::string known;
  for (const std::string_view name : suite_kernels())
    known += (known.empty() ? "" : ", ") + std::string(name);
  for (const std::string_view name : ubench::kernels()) known += ", " + std::string(name);
  throw std::invalid_argument("unknown suite kernel '" + std::string(kernel) +
                              "'; the kernels: " + known);
}

Launch describe_launch(const SuiteEntry& entry) {
  const std::vector<std::string_view> values(entry.values.begin(), entry.values.end());
  return describe_launch(entry.kernel, values);
}

}  // namespace sassim::kernels
