// The neighborhood3d family: the neighborhood family's blur on an RGBA float volume (3x3x3),
// `direct` (27 device loads per voxel) vs `shared_tile` (the group's tile plus a one-voxel
// border loaded into shared memory once), with the article's 4x4x4 and 8x8x8 groups. It runs on
// the neighborhood family's case.
#pragma once

#include "bench/neighborhood.hpp"

namespace csbench::neighborhood3d {

const Family<neighborhood::Variant>& Descriptor();

}  // namespace csbench::neighborhood3d
