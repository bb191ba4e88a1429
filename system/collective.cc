#include "system/collective.h"

#include <array>
#include <utility>

namespace sassim::system {

namespace {

template <typename T, std::size_t N>
std::optional<T> find(const std::array<std::pair<T, std::string_view>, N>& table,
                      std::string_view text) {
  for (const auto& [value, name] : table) {
    if (name == text) return value;
  }
  return std::nullopt;
}

template <typename T, std::size_t N>
std::string_view name(const std::array<std::pair<T, std::string_view>, N>& table, T value) {
  for (const auto& [v, n] : table) {
    if (v == value) return n;
  }
  return "?";
}

constexpr std::array<std::pair<CollectiveOp, std::string_view>, 6> kOps{{
    {CollectiveOp::kAllReduce, "all_reduce"},
    {CollectiveOp::kAllGather, "all_gather"},
    {CollectiveOp::kReduceScatter, "reduce_scatter"},
    {CollectiveOp::kAllToAll, "alltoall"},
    {CollectiveOp::kSendRecv, "sendrecv"},
    {CollectiveOp::kSend, "send"},
}};
constexpr std::array<std::pair<Algorithm, std::string_view>, 5> kAlgorithms{{
    {Algorithm::kAuto, "auto"},
    {Algorithm::kRing, "ring"},
    {Algorithm::kTree, "tree"},
    {Algorithm::kNvls, "nvls"},
    {Algorithm::kP2p, "p2p"},
}};
constexpr std::array<std::pair<Protocol, std::string_view>, 4> kProtocols{{
    {Protocol::kAuto, "auto"},
    {Protocol::kLl, "ll"},
    {Protocol::kLl128, "ll128"},
    {Protocol::kSimple, "simple"},
}};
constexpr std::array<std::pair<DataType, std::string_view>, 3> kTypes{{
    {DataType::kBf16, "bf16"},
    {DataType::kFp16, "fp16"},
    {DataType::kFp32, "fp32"},
}};

}  // namespace

std::string_view name_of(CollectiveOp op) {
  return name(kOps, op);
}
std::string_view name_of(Algorithm algorithm) {
  return name(kAlgorithms, algorithm);
}
std::string_view name_of(Protocol protocol) {
  return name(kProtocols, protocol);
}
std::string_view name_of(DataType type) {
  return name(kTypes, type);
}
std::optional<CollectiveOp> parse_op(std::string_view text) {
  return find(kOps, text);
}
std::optional<Algorithm> parse_algorithm(std::string_view text) {
  return find(kAlgorithms, text);
}
std::optional<Protocol> parse_protocol(std::string_view text) {
  return find(kProtocols, text);
}
std::optional<DataType> parse_data_type(std::string_view text) {
  return find(kTypes, text);
}

uint32_t size_of(DataType type) {
  return type == DataType::kFp32 ? 4 : 2;
}

double bus_factor(CollectiveOp op, uint32_t ranks) {
  const double n = ranks;
  switch (op) {
    case CollectiveOp::kAllReduce:
      return 2.0 * (n - 1) / n;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllToAll:
      return (n - 1) / n;
    case CollectiveOp::kSendRecv:
    case CollectiveOp::kSend:
      return 1.0;
  }
  return 1.0;
}

}  // namespace sassim::system
