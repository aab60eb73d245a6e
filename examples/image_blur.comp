#version 450
// A 3x3 box blur of a W x H r32f storage image: each output texel is the mean of the nine texels
// around it, with coordinates clamped to the image (an edge texel counts its nearest neighbours
// again). One output texel per invocation; imageLoad and imageStore, no sampler.
//
// Macros:
//   TILED  the workgroup first copies its block and a one-texel border, (X + 2) x (Y + 2) texels,
//          into shared memory, each texel loaded from the image once; the nine reads then come
//          from there. Otherwise each invocation loads its nine texels from the image, and
//          neighbours' loads overlap (the texture path's caches may absorb that: the variants
//          measure it).
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src (r32f storage image, read), 1 dst (r32f storage image, written); both W x H.
// Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

// Clamped here: a storage image has no address mode, and a load outside it is undefined (zero
// under robust image access). The check's neighbour reads clamp the same way (the input's
// outside = "clamp").
float Texel(ivec2 p) {
  const ivec2 q = clamp(p, ivec2(0), ivec2(width, height) - 1);
  return imageLoad(src, q).r;
}

#ifdef TILED
// Sized by the specialization constants, which the driver fixes when the pipeline is created.
const uint kTileWidth = gl_WorkGroupSize.x + 2;
const uint kTileHeight = gl_WorkGroupSize.y + 2;
shared float tile[kTileWidth * kTileHeight];
#endif

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float sum = 0.0;
#ifdef TILED
  // The tile starts one texel up and left of the block. It holds more texels than the group has
  // invocations, so each invocation loads every (X * Y)-th one, in row-major order.
  const ivec2 corner = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy) - 1;
  const uint invocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  for (uint k = gl_LocalInvocationIndex; k < kTileWidth * kTileHeight; k += invocations) {
    tile[k] = Texel(corner + ivec2(k % kTileWidth, k / kTileWidth));
  }
  // Every texel of the tile is stored before any invocation reads its neighbours'. Invocations
  // past the right or bottom edge (a partial block) load too and reach this barrier, which the
  // whole group must; they leave only after it.
  barrier();
  if (p.x >= int(width) || p.y >= int(height)) return;
  const ivec2 centre = ivec2(gl_LocalInvocationID.xy) + 1;
  for (int dy = -1; dy <= 1; ++dy) {
    const uint row = uint(centre.y + dy) * kTileWidth;
    for (int dx = -1; dx <= 1; ++dx) sum += tile[row + uint(centre.x + dx)];
  }
#else
  if (p.x >= int(width) || p.y >= int(height)) return;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) sum += Texel(p + ivec2(dx, dy));
  }
#endif
  imageStore(dst, p, vec4(sum / 9.0));
}
