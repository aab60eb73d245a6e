#version 450
// Pass 1 of image_sum: each workgroup adds one tile of a W x H r32f image and writes the sum to
// tiles[tile]. A tile is X texels wide and 4 * Y high: each invocation adds the 4 texels of its
// column Y rows apart, so that on every step the group reads X * Y neighbouring texels. Tiles are
// numbered row-major over the dispatch, tile = group.y * groups.x + group.x; the tiles at the
// right and bottom edges are cut short by the image.
//
// Macros:
//   SERIAL  the group's first invocation adds the whole tile itself, row by row, and the others do
//           nothing: the plainest order of additions, the reference the tree is compared with.
//           Otherwise each invocation adds its column and the group adds the X * Y sums by a tree
//           in shared memory.
// Specialization constants: 0, 1 the workgroup's width and height (any sizes: the tree halves with
//   rounding up).
// Bindings: 0 img (r32f storage image, read), 1 tiles float[ceil(W / X) * ceil(H / (4 * Y))].
//   tiles is read again by the next pass; it is declared neither readonly nor writeonly.
// Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D img;
layout(std430, set = 0, binding = 1) buffer Tiles { float tiles[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

// The manifest's tile count and groups are written with this 4.
const uint kRows = 4;
const uint kInvocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y;

#ifndef SERIAL
shared float partial[kInvocations];
#endif

void main() {
  const uvec2 corner = gl_WorkGroupID.xy * uvec2(gl_WorkGroupSize.x, kRows * gl_WorkGroupSize.y);
  const uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
#ifdef SERIAL
  if (gl_LocalInvocationIndex != 0) return;
  const uvec2 end = min(corner + uvec2(gl_WorkGroupSize.x, kRows * gl_WorkGroupSize.y),
                        uvec2(width, height));
  float sum = 0.0;
  for (uint y = corner.y; y < end.y; ++y) {
    for (uint x = corner.x; x < end.x; ++x) sum += imageLoad(img, ivec2(x, y)).r;
  }
  tiles[tile] = sum;
#else
  const uint x = corner.x + gl_LocalInvocationID.x;
  float sum = 0.0;
  for (uint r = 0; r < kRows; ++r) {
    const uint y = corner.y + r * gl_WorkGroupSize.y + gl_LocalInvocationID.y;
    if (x < width && y < height) sum += imageLoad(img, ivec2(x, y)).r;
  }
  const uint lane = gl_LocalInvocationIndex;
  partial[lane] = sum;
  // Every invocation's sum is stored before the first step reads it, and each step's sums before
  // the next step's. live is the same in every invocation, so every barrier is reached by all.
  barrier();
  for (uint live = kInvocations; live > 1;) {
    const uint upper = (live + 1) / 2;  // slots [upper, live) move onto [0, live - upper)
    if (lane < live - upper) partial[lane] += partial[lane + upper];
    barrier();
    live = upper;
  }
  if (lane == 0) tiles[tile] = partial[0];
#endif
}
