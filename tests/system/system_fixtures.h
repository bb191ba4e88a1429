#pragma once
// Small systems for the system tests: config texts with round figures and hand-built
// topologies.
#include <string>

#include <fmt/format.h>

#include "configs/system_config.pb.h"
#include "system/system_config_loader.h"

namespace sassim::system::testing {

// A node of `gpus` GPUs with every protocol cost but the given step latency at zero, one
// channel, and slices as large as `step_bytes`. NVLink of 1 GB/s per link (payload
// efficiency 1); with `nvswitch`, each GPU has `links` links to the switch, else `links`
// spread over direct links to the other GPUs.
inline std::string small_system_text(int gpus, int links, bool nvswitch, double nvlink_ns,
                                     double switch_ns, double step_us = 0,
                                     unsigned long long step_bytes = 1ull << 30) {
  const std::string protocol = fmt::format(
      "payload_fraction: 1 base_latency_us: 0 nvlink_step_latency_us: {} "
      "pcie_step_latency_us: 0 net_step_latency_us: 0 channel_max_gb_per_s: 0 "
      "step_bytes: {} threads: 1024 bytes_per_thread_per_channel: 1048576",
      step_us, step_bytes);
  return fmt::format(
      "name: \"test system\"\ngpus_per_node: {}\ngpu_preset: \"h100\"\n"
      "nvlink {{ generation: 4 links_per_gpu: {} gb_per_s_per_link: 1 payload_efficiency: 1 "
      "latency_ns: {} }}\n"
      "nvswitch {{ present: {} latency_ns: {} }}\n"
      "pcie {{ generation: 5 lanes: 16 gb_per_s: 50 latency_ns: 0 }}\n"
      "comm {{ max_channels: 1 p2p_channels_per_peer: 1 max_slices_per_step: 4096\n"
      "  ll {{ {} }}\n  ll128 {{ {} }}\n  simple {{ {} }}\n}}\n",
      gpus, links, nvlink_ns, nvswitch ? "true" : "false", switch_ns, protocol, protocol, protocol);
}

inline config::SystemConfig small_system(int gpus, int links, bool nvswitch, double nvlink_ns,
                                         double switch_ns, double step_us = 0,
                                         unsigned long long step_bytes = 1ull << 30) {
  return parse_system_config(
      small_system_text(gpus, links, nvswitch, nvlink_ns, switch_ns, step_us, step_bytes),
      "test.txtpb");
}

}  // namespace sassim::system::testing
