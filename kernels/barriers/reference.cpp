#include "kernels/barriers/reference.hpp"

#include <stdexcept>
#include <vector>

namespace csbench::barriers {
namespace {

// exchange.comp's Work(): `steps` hash steps, folded into v exactly.
float Hashed(float v, uint32_t lane, uint32_t round, uint32_t steps) {
  uint32_t h = lane + round;
  for (uint32_t k = 0; k < steps; ++k) h = h * 1664525u + 1013904223u;
  return v + static_cast<float>(h >> 24) * 9.5367431640625e-07f;
}

}  // namespace

void Exchange(std::span<const float> in, uint32_t workgroup, uint32_t rounds, Work work, std::span<float> out) {
  if (workgroup == 0) throw std::invalid_argument("Exchange: empty workgroup");
  if (out.size() != in.size()) throw std::invalid_argument("Exchange: output size mismatch");
  std::vector<float> v(workgroup), published(workgroup);
  for (size_t base = 0; base < in.size(); base += workgroup) {
    for (uint32_t l = 0; l < workgroup; ++l) v[l] = base + l < in.size() ? in[base + l] : 0.0f;
    for (uint32_t r = 0; r < rounds; ++r) {
      for (uint32_t l = 0; l < workgroup; ++l) {
        if (work == Work::kEven) v[l] = Hashed(v[l], l, r, 31);
        if (work == Work::kUneven) v[l] = Hashed(v[l], l, r, 2 * (l % 32));
        published[l] = v[l];
      }
      for (uint32_t l = 0; l < workgroup; ++l) v[l] = 0.5f * (v[l] + published[(l + 1) % workgroup]);
    }
    for (uint32_t l = 0; l < workgroup && base + l < in.size(); ++l) out[base + l] = v[l];
  }
}

}  // namespace csbench::barriers
