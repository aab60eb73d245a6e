#include "bench/neighborhood3d.hpp"

#include "kernels/neighborhood3d/reference.hpp"

namespace csbench::neighborhood3d {

const Family<neighborhood::Variant>& Descriptor() {
  // The article's groups: 4x4x4 (its 70% border) and 8x8x8 (48%), the largest cube of at most
  // 1024 invocations. 128^3 RGBA floats: 32 MiB, the size of the 2D family's 1080p image.
  static const Family<neighborhood::Variant> family = neighborhood::BlurFamily(
      "neighborhood3d",
      {{.name = "direct",
        .source = "neighborhood3d/blur.comp",
        .workgroups = {{4, 4, 4}, {8, 8, 8}},
        .cpu_default = {{.workgroups = {{8, 8, 8}}}}},
       {.name = "shared_tile",
        .source = "neighborhood3d/blur.comp",
        .defines = {{"SHARED_TILE", "1"}},
        .workgroups = {{4, 4, 4}, {8, 8, 8}},
        .shared_tile = true,
        .cpu_default = kEveryPoint}},
      {{128, 128, 128}}, {{19, 11, 7}, {3, 5, 2}},
      [](std::span<const float> in, Extent d, std::span<float> out) { Blur3x3x3(in, d.x, d.y, d.z, out); });
  return family;
}

namespace {
const Declaration kDeclared = Declare("neighborhood3d", &Descriptor);
}

}  // namespace csbench::neighborhood3d
