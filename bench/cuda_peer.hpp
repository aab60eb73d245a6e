// The CUDA peers' registration (bench/cuda_peer.cpp): what a test checks without a CUDA device.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/grayscott.hpp"

namespace csbench::cuda_peer {

// The Vulkan variant whose shape the fused CUDA peer's kernel is compiled in.
inline constexpr std::string_view kTwin = "fused6_shuffle12";

// Why the fused peer no longer matches its twin in `table` (a Gray-Scott variant table), or
// nothing where it does: the twin's cells and steps are the peer kernel's, and its workgroups
// include the peer's block. Registration skips the peers' Gray-Scott family with this message,
// and families_test fails with it.
std::optional<std::string> TwinMismatch(const std::vector<grayscott::Variant>& table);

}  // namespace csbench::cuda_peer
