#include "correlate/device_sms.h"

#include <array>
#include <cctype>
#include <string>

namespace sassim::correlate {
namespace {

struct KnownDevice {
  std::string_view name;  // without the "NVIDIA " prefix, lower case
  std::uint32_t sms;
  bool prefix;  // also matches names that continue ("tesla v100-sxm2-16gb")
};

constexpr std::array<KnownDevice, 12> kDevices = {{
    {"geforce gtx 1070", 15, false},     // 1920 cores / 128
    {"geforce gtx 1080", 20, false},     // 2560 / 128
    {"geforce gtx 1080 ti", 28, false},  // 3584 / 128
    {"titan xp", 30, false},             // 3840 / 128
    {"tesla p100", 56, true},            // 3584 / 64
    {"tesla v100", 80, true},            // 5120 / 64
    {"quadro gv100", 80, false},         // 5120 / 64
    {"titan v", 80, false},              // 5120 / 64
    {"geforce rtx 2060", 30, false},     // 1920 / 64
    {"geforce rtx 2080 ti", 68, false},  // 4352 / 64
    {"tesla t4", 40, false},             // 2560 / 64
    {"quadro rtx 6000", 72, false},      // 4608 / 64
}};

}  // namespace

std::optional<std::uint32_t> known_sm_count(std::string_view device_name) {
  std::string name;
  for (char c : device_name) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // "nvidia geforce gtx 1080 (0)" -> "geforce gtx 1080"
  if (auto open = name.rfind(" ("); open != std::string::npos && name.back() == ')') {
    name.resize(open);
  }
  if (name.starts_with("nvidia ")) name.erase(0, 7);
  for (const KnownDevice& d : kDevices) {
    if (name == d.name || (d.prefix && name.starts_with(d.name))) return d.sms;
  }
  return std::nullopt;
}

}  // namespace sassim::correlate
