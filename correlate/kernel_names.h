#pragma once
// Kernel names in the forms profilers and tracers print them, made comparable:
//   mangled    _Z6vecAddIfEvPT_S1_S1_i                    (traces, nvprof by default in CSV)
//   demangled  void vecAdd<float>(float*, float*, float*, int)   (ncu, nvprof)
//   base       vecAdd                                     (ncu --kernel-name-base function)
#include <string>
#include <string_view>

#include "ground/display_name.h"  // demangle

namespace sassim::correlate {

// The comparison key of a name: demangled, without the return type (mangled names of
// non-template functions carry none), blanks dropped except one between two identifier
// characters ("void k<float>(float *)" and "_Z1kIfEvPT_" both give "k<float>(float*)").
std::string full_kernel_name(std::string_view name);

// The bare function name: no return type, namespaces, template arguments or parameters
// ("void ns::vecAdd<float>(float*, int)" -> "vecAdd").
std::string base_kernel_name(std::string_view name);

// Whether the name carries its signature (mangled, or demangled with parameters), so its
// full form can tell overloads and template instances apart; a base name cannot.
bool has_signature(std::string_view name);

}  // namespace sassim::correlate
