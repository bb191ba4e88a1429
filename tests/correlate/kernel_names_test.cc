// Mangled, demangled and base kernel names compare as they should.
#include "correlate/kernel_names.h"

#include <gtest/gtest.h>

namespace sassim::correlate {
namespace {

TEST(KernelNames, DemanglesItaniumNames) {
  EXPECT_EQ(demangle("_Z6vecAddIfEvPT_S1_S1_i"), "void vecAdd<float>(float*, float*, float*, int)");
  EXPECT_EQ(demangle("_Z8mult_gpuIfEvPT_S1_S1_ii"),
            "void mult_gpu<float>(float*, float*, float*, int, int)");
  EXPECT_EQ(demangle("vecAdd"), "vecAdd");          // extern "C" kernels stay as they are
  EXPECT_EQ(demangle("_Znotvalid"), "_Znotvalid");  // not demangleable: unchanged
}

TEST(KernelNames, FullNamesIgnoreBlanksAroundPunctuation) {
  EXPECT_EQ(full_kernel_name("_Z6vecAddIfEvPT_S1_S1_i"),
            full_kernel_name("void vecAdd<float>(float *, float *, float *, int)"));
  EXPECT_EQ(full_kernel_name("  void  k(unsigned   int) "), "k(unsigned int)");
  EXPECT_EQ(full_kernel_name("_Z6vecAddIfEvPT_S1_S1_i"), "vecAdd<float>(float*,float*,float*,int)");
  // Non-template mangled names carry no return type; demangled ones may.
  EXPECT_EQ(full_kernel_name("_Z1ai"), full_kernel_name("void a(int)"));
  EXPECT_EQ(full_kernel_name("void ns::k<unsigned int>(int)"), "ns::k<unsigned int>(int)");
  EXPECT_EQ(full_kernel_name("(anonymous namespace)::scan(int*)"),
            "(anonymous namespace)::scan(int*)");
  EXPECT_NE(full_kernel_name("void k(int)"), full_kernel_name("void k(float)"));
}

TEST(KernelNames, BaseNames) {
  EXPECT_EQ(base_kernel_name("_Z6vecAddIfEvPT_S1_S1_i"), "vecAdd");
  EXPECT_EQ(base_kernel_name("void vecAdd<float>(float*, float*, float*, int)"), "vecAdd");
  EXPECT_EQ(base_kernel_name("vecAdd"), "vecAdd");
  EXPECT_EQ(base_kernel_name("void ns::inner::gemm<int, (int)2>(int*, int)"), "gemm");
  EXPECT_EQ(base_kernel_name("(anonymous namespace)::scan(int*)"), "scan");
  EXPECT_EQ(base_kernel_name("findRangeK"), "findRangeK");
}

TEST(KernelNames, Signatures) {
  EXPECT_TRUE(has_signature("_Z6vecAddIfEvPT_S1_S1_i"));
  EXPECT_TRUE(has_signature("void vecAdd<float>(float*, int)"));
  EXPECT_FALSE(has_signature("vecAdd"));
}

}  // namespace
}  // namespace sassim::correlate
