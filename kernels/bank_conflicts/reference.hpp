// The bank_conflicts family's plain-loop implementations: the references of the transpose and of
// the strided shared-memory reads, and the CPU fallback backend.
#pragma once

#include <cstdint>
#include <span>

namespace csbench::bank_conflicts {

// out (width x height, row-major) = the transpose of in (height x width, row-major).
void Transpose(std::span<const float> in, uint32_t width, uint32_t height, std::span<float> out);

// The words the strided kernel reads: the first 4096 of its input.
inline constexpr uint32_t kSharedWords = 4096;

// out[i] = sum over a < accesses of words[(l * stride + a) % 4096], l = i % workgroup, summed in
// float in order of a (as the kernel does). `words` holds at least 4096 values.
void StridedSums(std::span<const float> words, uint32_t workgroup, uint32_t stride, uint32_t accesses,
                 std::span<float> out);

}  // namespace csbench::bank_conflicts
