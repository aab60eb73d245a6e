#include "bench/vector_width.hpp"

#include <fmt/format.h>

#include "harness/base/error.hpp"
#include "harness/family/float_inputs.hpp"
#include "harness/vulkan/context.hpp"
#include "kernels/vector_width/reference.hpp"

namespace csbench::vector_width {
namespace {

constexpr uint64_t kSeed = 20100310;

struct Push {
  uint32_t count;
  float a;
};

void Reference(std::span<const float> values, std::span<float> out) { Scale(values, kScale, out); }

Variant Row(const char* element, uint32_t width, std::vector<Pick> cpu_default = {}) {
  return {.name = element,
          .source = "vector_width/scale.comp",
          .defines = {{"ELEMENT", element}, {"WIDTH", std::to_string(width)}},
          .width = width,
          .workgroups = {{64}, {256}, {1024}},
          .cpu_default = std::move(cpu_default)};
}

}  // namespace

const Family<Variant>& Descriptor() {
  // 256 threads per group: the copy kernel's best on the H200 (docs/perf-notes.md); 64 (one AMD
  // wavefront, two NVIDIA warps) and 1024 (the most NVIDIA, AMD and lavapipe allow) on either
  // side, so the table shows whether the width's effect depends on the group size (group_size
  // sweeps the size itself, on a scalar kernel). Every width runs at every size. At 64, the
  // 65535-group cap makes float and vec2 loop (4 and 2 steps per invocation on 16 Mi floats).
  static const Family<Variant> family{
      .name = "vector_width",
      // A CPU device's default set: the DirectCompute claim's contrast, float against vec4.
      .variants = {Row("float", 1, {{.workgroups = {{256}}}}), Row("vec2", 2), Row("vec4", 4, {{.workgroups = {{256}}}})},
      .domains = {{16u << 20}},  // 64 MiB in, 64 MiB out
      .test_domains = {{100004}, {36}},
      .make = FloatMapMaker<Variant>(
          "vector_width", kSeed, [](const Point& p) { return PushBytes(Push{p.domain.x, kScale}); }, Reference,
          kTolerance,
          [](const Point& p) {
            // Every width reads the same domain, so each one's domain is whole vec4.
            RequireSupport(p.domain.x % 4 == 0,
                           fmt::format("vector_width: {} floats are not a whole number of vec4", p.domain.x));
          }),
      .plain_loop = FloatPlainLoop("vector_width", kSeed, Reference)};
  return family;
}

namespace {
const Declaration kDeclared = Declare("vector_width", &Descriptor);
}

}  // namespace csbench::vector_width
