// The packing family: the neighborhood family's 3x3 blur with a 16x16 shared tile, in fp32, with
// fp16 pixels in memory (VK_KHR_16bit_storage) and with fp16 memory, shared tile and arithmetic
// (shaderFloat16). A device without those features skips the fp16 variants with the reason. It
// runs on the neighborhood family's case.
#pragma once

#include "bench/neighborhood.hpp"

namespace csbench::packing {

const Family<neighborhood::Variant>& Descriptor();

}  // namespace csbench::packing
