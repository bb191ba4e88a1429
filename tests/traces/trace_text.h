#pragma once
// Builders of small Accel-Sim trace texts for tests.
#include <string>

namespace sassim::traces::trace_text {

struct HeaderFields {
  std::string name = "_Z6kernelPf";
  std::string tracer = "4";
  std::string binary_version = "80";
  std::string grid = "(2,1,1)";
  std::string block = "(64,1,1)";
  std::string nregs = "32";
  std::string shmem = "0";
  std::string cluster = {};    // "-cluster dim = <cluster>" after the other fields when set
  bool lineinfo_field = true;  // "-enable lineinfo = <lineinfo>" (written for v4+ only)
  int lineinfo = 0;
  std::string shmem_base = "0x00007f2b5a000000";
  std::string local_base = "0x00007f2b58000000";
};

inline std::string header(const HeaderFields& f = {}) {
  std::string h = "-kernel name = " + f.name + "\n-kernel id = 1\n-grid dim = " + f.grid +
                  "\n-block dim = " + f.block + "\n-shmem = " + f.shmem + "\n-nregs = " + f.nregs +
                  "\n-binary version = " + f.binary_version +
                  "\n-cuda stream id = 0\n-shmem base_addr = " + f.shmem_base +
                  "\n-local mem base_addr = " + f.local_base +
                  "\n-nvbit version = 1.5.5\n-accelsim tracer version = " + f.tracer + "\n";
  if (f.lineinfo_field && f.tracer != "3" && !f.tracer.starts_with("1") && f.tracer != "2") {
    h += "-enable lineinfo = " + std::to_string(f.lineinfo) + "\n";
  }
  if (!f.cluster.empty()) h += "-cluster dim = " + f.cluster + "\n";
  h += "\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
       "mem_width [adrrescompress?] [mem_addresses]\n\n";
  return h;
}

}  // namespace sassim::traces::trace_text
