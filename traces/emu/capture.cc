#include "traces/emu/capture.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "ground/error.h"
#include "traces/emu/executor.h"
#include "traces/emu/tensor_map.h"
#include "traces/emu/trace_writer.h"

namespace sassim::emu {
namespace {

void put(std::vector<uint8_t>& bank, uint64_t offset, const void* data, size_t size) {
  if (offset + size > bank.size()) bank.resize(offset + size);
  std::memcpy(bank.data() + offset, data, size);
}

std::optional<int> sm_of(std::string_view text) {
  const size_t at = text.find("sm_");
  if (at == std::string_view::npos) return std::nullopt;
  int v = 0;
  size_t i = at + 3, digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits)
    v = v * 10 + (text[i] - '0');
  if (digits == 0) return std::nullopt;
  return v;
}

}  // namespace

DeviceBuffers::DeviceBuffers(const kernels::Launch& launch) {
  for (const kernels::Arg& a : launch.arguments()) {
    if (a.kind == kernels::ArgKind::kBuffer || a.kind == kernels::ArgKind::kTensorMap) {
      memory.allocate(std::string(a.name), a.size_bytes);
      allocation_of_arg.push_back(static_cast<int>(memory.count() - 1));
    } else {
      allocation_of_arg.push_back(-1);
    }
  }
}

void DeviceBuffers::bind(const kernels::Launch& launch, std::vector<int> allocations,
                         std::vector<uint64_t> offsets) {
  const auto args = launch.arguments();
  if (allocations.size() != args.size() || offsets.size() != args.size()) {
    throw Error(fmt::format("{}: {} arguments, {} allocations and {} offsets bound", launch.kernel,
                            args.size(), allocations.size(), offsets.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const bool buffer =
        args[i].kind == kernels::ArgKind::kBuffer || args[i].kind == kernels::ArgKind::kTensorMap;
    if (!buffer) continue;
    const int a = allocations[i];
    if (a < 0 || static_cast<size_t>(a) >= memory.count()) {
      throw Error(fmt::format("{}: argument {} ({}) bound to no allocation", launch.kernel, i,
                              args[i].name));
    }
    const uint64_t size = memory.buffer(static_cast<size_t>(a)).size();
    if (offsets[i] > size || args[i].size_bytes > size - offsets[i]) {
      throw Error(
          fmt::format("{}: argument {} ({}, {} bytes at offset {}) does not fit its "
                      "allocation of {} bytes",
                      launch.kernel, i, args[i].name, args[i].size_bytes, offsets[i], size));
    }
  }
  allocation_of_arg = std::move(allocations);
  offset_of_arg = std::move(offsets);
}

uint64_t DeviceBuffers::arg_address(size_t index) const {
  const int a = allocation_of_arg.at(index);
  if (a < 0) throw Error(fmt::format("argument {} is not a buffer", index));
  return memory.address(static_cast<size_t>(a)) +
         (offset_of_arg.empty() ? 0 : offset_of_arg.at(index));
}

std::vector<uint8_t>& DeviceBuffers::arg(size_t index) {
  const int a = allocation_of_arg.at(index);
  if (a < 0) throw Error(fmt::format("argument {} is not a buffer", index));
  return memory.buffer(static_cast<size_t>(a));
}

ConstBank make_const_bank(const kernels::Launch& launch, const DeviceBuffers& buffers,
                          int sm_version) {
  ConstBank bank;
  bank.bytes.assign(0x1000, 0);
  const uint32_t dims[6] = {launch.block.x, launch.block.y, launch.block.z,
                            launch.grid.x,  launch.grid.y,  launch.grid.z};
  put(bank.bytes, 0x0, dims, sizeof(dims));
  const uint32_t stack_top = kLocalBytesPerThread;
  put(bank.bytes, 0x28, &stack_top, 4);
  if (sm_version >= 90) {
    const uint64_t params = kParamWindowBase + kParamBankOffset;
    put(bank.bytes, kParamPointerOffset, &params, 8);
  }
  uint64_t offset = sm_version >= 90 ? kParamBankOffset : 0x160;
  const auto args = launch.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    const kernels::Arg& a = args[i];
    switch (a.kind) {
      case kernels::ArgKind::kBuffer: {
        offset = (offset + 7) / 8 * 8;
        const uint64_t address = buffers.arg_address(i);
        put(bank.bytes, offset, &address, 8);
        offset += 8;
        break;
      }
      case kernels::ArgKind::kTensorMap: {
        // nvcc places a __grid_constant__ CUtensorMap at a 128-byte aligned bank offset.
        offset = (offset + 127) / 128 * 128;
        bank.bytes.resize(std::max<size_t>(bank.bytes.size(), offset + kTensorMapBytes));
        const uint64_t address = buffers.arg_address(i);
        encode_tensor_map(
            a.map, address,
            std::span<uint8_t, kTensorMapBytes>(bank.bytes.data() + offset, kTensorMapBytes));
        offset += kTensorMapBytes;
        break;
      }
      default:
        offset = (offset + 3) / 4 * 4;
        put(bank.bytes, offset, &a.value_bits, 4);
        offset += 4;
    }
  }
  return bank;
}

int listing_sm_version(const traces::sass::Listing& listing, const std::filesystem::path& path) {
  if (auto v = sm_of(listing.arch)) return *v;
  if (auto v = sm_of(path.parent_path().filename().string())) return *v;
  throw Error(
      fmt::format("{}: cannot tell the architecture: expected a listing header naming "
                  "sm_XY or a folder named sm_XY",
                  path.string()));
}

std::vector<uint8_t> read_const_bank2(const std::filesystem::path& listing) {
  std::filesystem::path path = listing;
  path.replace_extension(".const2");
  std::ifstream file(path);
  std::vector<uint8_t> bank;
  if (!file) return bank;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string offset_text, value_text;
    if (!(words >> offset_text)) continue;
    uint64_t offset = 0, value = 0;
    auto hex = [](const std::string& t, uint64_t& out) {
      if (t.size() < 3 || t.compare(0, 2, "0x") != 0) return false;
      auto [end, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), out, 16);
      return ec == std::errc() && end == t.data() + t.size();
    };
    std::string extra;
    if (!(words >> value_text) || !hex(offset_text, offset) || !hex(value_text, value) ||
        (words >> extra) || offset > 0x10000) {
      throw Error(fmt::format("{}:{}: '{}': expected 'OFFSET VALUE' in hex (0x...)", path.string(),
                              number, line));
    }
    const size_t bytes = value_text.size() - 2 > 8 ? 8 : 4;
    put(bank, offset, &value, bytes);
  }
  return bank;
}

CaptureResult capture(const traces::sass::Listing& listing, const kernels::Launch& launch,
                      DeviceBuffers& buffers, const CaptureOptions& options) {
  const traces::sass::Function* function = nullptr;
  for (const auto& f : listing.functions) {
    if (f.name == launch.kernel) function = &f;
  }
  if (function == nullptr) {
    std::string names;
    for (const auto& f : listing.functions) names += (names.empty() ? "" : ", ") + f.name;
    throw Error(fmt::format("{}: no function {} (it holds {})", listing.origin, launch.kernel,
                            names.empty() ? "none" : names));
  }
  ConstBank bank = make_const_bank(launch, buffers, options.sm_version);
  bank.bank2 = options.const_bank2;
  const Program program = decode_program(*function, listing.origin, bank);
  LaunchShape shape;
  shape.grid = {launch.grid.x, launch.grid.y, launch.grid.z};
  shape.block = {launch.block.x, launch.block.y, launch.block.z};
  shape.cluster = {launch.cluster.x, launch.cluster.y, launch.cluster.z};
  shape.shared_bytes = kSharedWindowBytes;
  shape.local_bytes = kLocalBytesPerThread;
  shape.max_warp_insts = options.max_warp_insts_per_cta;
  Executor executor(program, bank, buffers.memory, shape);

  std::optional<TraceWriter> writer;
  if (!options.trace_folder.empty())
    writer.emplace(options.trace_folder, options.compression, program, options.host_copies,
                   options.slot);
  const uint64_t total = launch.grid.count();
  CaptureResult result;
  // Cluster by cluster (one CTA each without clusters), x fastest; each cluster's CTAs
  // in rank order.
  const Dim3 c = shape.cluster;
  for (uint32_t z = 0; z < launch.grid.z; z += c.z) {
    for (uint32_t y = 0; y < launch.grid.y; y += c.y) {
      for (uint32_t x = 0; x < launch.grid.x; x += c.x) {
        executor.run_cluster({x, y, z});
        for (const Cta& cta : executor.cluster()) {
          if (writer) {
            if (result.ctas == 0) {
              // Static shared memory is not in the listing: the first CTA's footprint stands
              // for it.
              const uint64_t window = options.sm_version >= 90 ? 1024 : 0;
              const uint64_t used = cta.shared_high > window ? cta.shared_high - window : 0;
              TraceHeader h;
              h.kernel_name = function->name;
              h.grid = shape.grid;
              h.block = shape.block;
              h.cluster = shape.cluster;
              h.shmem_bytes = static_cast<uint32_t>(
                  std::max<uint64_t>((used + 127) / 128 * 128, launch.dynamic_shared_bytes));
              h.nregs = function->registers;
              h.binary_version = options.sm_version;
              writer->write_header(h);
            }
            writer->write_cta(cta);
          }
          ++result.ctas;
          if (options.progress) options.progress(result.ctas, total, executor.warp_insts());
        }
      }
    }
  }
  if (writer) {
    writer->close();
    result.trace_lines = writer->lines();
  }
  result.warp_insts = executor.warp_insts();
  return result;
}

}  // namespace sassim::emu
