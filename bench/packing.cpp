#include "bench/packing.hpp"

#include "kernels/neighborhood/reference.hpp"

namespace csbench::packing {

const Family<neighborhood::Variant>& Descriptor() {
  // Tolerances: fp16 output alone is off by up to 2^-11 relative (4.9e-4); fp16 sums of nine
  // terms add a few such roundings. The plain loop is the neighborhood family's (fp32 only), so
  // none is registered here.
  static const Family<neighborhood::Variant> family = neighborhood::BlurFamily(
      "packing",
      {{.name = "fp32", .source = "packing/blur.comp", .workgroups = {{16, 16}}, .shared_tile = true,
        .cpu_default = kEveryPoint},
       {.name = "fp16_storage",
        .source = "packing/blur.comp",
        .defines = {{"HALF_STORAGE", "1"}},
        .workgroups = {{16, 16}},
        .shared_tile = true,
        .half_storage = true,
        .needs_float16 = true,
        .tolerance = 1e-3,
        .cpu_default = kEveryPoint},
       {.name = "fp16",
        .source = "packing/blur.comp",
        .defines = {{"HALF_STORAGE", "1"}, {"HALF_MATH", "1"}},
        .workgroups = {{16, 16}},
        .shared_tile = true,
        .half_storage = true,
        .needs_float16 = true,
        .tolerance = 4e-3,
        .cpu_default = kEveryPoint}},
      {{1920, 1080}}, {{67, 45}, {13, 7}},
      [](std::span<const float> in, Extent d, std::span<float> out) { neighborhood::Blur3x3(in, d.x, d.y, out); },
      /*plain_loop=*/false);
  return family;
}

namespace {
const Declaration kDeclared = Declare("packing", &Descriptor);
}

}  // namespace csbench::packing
