#include "bench/neighborhood3d.hpp"

#include "kernels/neighborhood3d/reference.hpp"

namespace csbench::neighborhood3d {

const std::vector<Variant>& Variants() {
  // The article's groups: 4x4x4 (its 70% border) and 8x8x8 (48%), the largest cube of at most
  // 1024 invocations.
  static const std::vector<Variant> variants = {
      {.name = "direct", .source = "neighborhood3d/blur.comp", .workgroups = {{4, 4, 4}, {8, 8, 8}}},
      {.name = "shared_tile", .source = "neighborhood3d/blur.comp", .defines = {{"SHARED_TILE", "1"}},
       .workgroups = {{4, 4, 4}, {8, 8, 8}}, .shared_tile = true},
  };
  return variants;
}

const std::vector<Extent3>& Domains() {
  // 128^3 RGBA floats: 32 MiB, the size of the 2D family's 1080p image.
  static const std::vector<Extent3> domains = {{128, 128, 128}};
  return domains;
}

const neighborhood::Family& ThisFamily() {
  static const neighborhood::Family family{.name = "neighborhood3d",
                                           .variants = &Variants(),
                                           .domains = &Domains(),
                                           .filter = [](std::span<const float> in, Extent3 d, std::span<float> out) {
                                             Blur3x3x3(in, d.x, d.y, d.z, out);
                                           }};
  return family;
}

void Register(Suite& suite) { neighborhood::RegisterFamily(suite, ThisFamily()); }

}  // namespace csbench::neighborhood3d
