// The packing family: the neighborhood family's 3x3 blur with a 16x16 shared tile, in fp32, with
// fp16 pixels in memory (VK_KHR_16bit_storage) and with fp16 memory, shared tile and arithmetic
// (shaderFloat16). A device without those features skips the fp16 variants with the reason. It
// runs on the neighborhood family's machinery.
#pragma once

#include "bench/neighborhood.hpp"

namespace csbench::packing {

using neighborhood::Extent3;
using neighborhood::Variant;

const std::vector<Variant>& Variants();
const std::vector<Extent3>& Domains();
const neighborhood::Family& ThisFamily();

void Register(Suite& suite);

}  // namespace csbench::packing
