// The neighborhood family: a 3x3 blur of an RGBA float image, every invocation loading its nine
// pixels from device memory (`direct`) or the workgroup loading its tile plus a one-pixel border
// into shared memory once (`shared_tile`). The same case runs the 3D family (neighborhood3d)
// and the fp16 one (packing): a variant names its kernel, its workgroups and its pixel storage,
// a family its domains and its filter (the reference).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::neighborhood {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  std::vector<Extent> workgroups;
  bool shared_tile = false;    // loads a tile plus border: its overhead is reported
  bool half_storage = false;   // f16vec4 pixels in device memory (8 bytes, not 16)
  bool needs_float16 = false;  // shaderFloat16 and storageBuffer16BitAccess
  double tolerance = 1e-5;     // relative, against the double-precision reference
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// The plain-loop filter of a blur family: (input, domain) -> output, RGBA floats.
using Filter = std::function<void(std::span<const float>, Extent, std::span<float>)>;

// The descriptor of a blur family: its GPU case is the blur case above on random RGBA floats
// (rotated; rounded to fp16 for half_storage variants, and so is their reference); its plain
// loop, where `plain_loop`, runs `filter` (32 bytes a pixel).
Family<Variant> BlurFamily(std::string name, std::vector<Variant> variants, std::vector<Extent> domains,
                           std::vector<Extent> test_domains, Filter filter, bool plain_loop = true);

const Family<Variant>& Descriptor();

}  // namespace csbench::neighborhood
