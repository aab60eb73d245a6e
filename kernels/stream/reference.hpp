// The stream family's plain-loop implementation: BabelStream's kernels on the CPU, the reference
// of the GPU kernels and the CPU fallback backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace csbench::stream {

// The kernels, in stream.comp's OP order.
enum class Op : uint32_t { kCopy = 0, kMul = 1, kAdd = 2, kTriad = 3, kDot = 4 };

// BabelStream's scalar.
inline constexpr float kScalar = 0.4f;

// c = a (copy), s * a (mul), a + b (add) or a + s * b (triad), each in float as the GPU rounds it
// (a GPU may fuse the triad's multiply-add: one rounding apart). Not for kDot.
inline void Apply(Op op, std::span<const float> a, std::span<const float> b, std::span<float> c) {
  for (size_t i = 0; i < c.size(); ++i) {
    switch (op) {
      case Op::kCopy:
        c[i] = a[i];
        break;
      case Op::kMul:
        c[i] = kScalar * a[i];
        break;
      case Op::kAdd:
        c[i] = a[i] + b[i];
        break;
      case Op::kTriad:
        c[i] = a[i] + kScalar * b[i];
        break;
      case Op::kDot:
        break;
    }
  }
}

// The sum of a[i] * b[i], in double.
inline double Dot(std::span<const float> a, std::span<const float> b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

// Arrays a kernel moves per element, as BabelStream counts them: copy and mul 2, add and triad
// 3, dot 2 (both read).
inline constexpr uint32_t ArraysMoved(Op op) { return op == Op::kAdd || op == Op::kTriad ? 3 : 2; }

// Floating-point operations per element: mul and add 1, triad (b + s c) and dot (a b summed) 2;
// copy none (it declares no arithmetic, so it has no bound%).
inline constexpr double FlopPerElement(Op op) {
  return op == Op::kCopy ? 0 : op == Op::kMul || op == Op::kAdd ? 1 : 2;
}

}  // namespace csbench::stream
