#version 450
// A 3x3 box blur of a W x H float image: each output is the mean of the nine pixels around it,
// with coordinates clamped to the image (an edge pixel counts its nearest neighbours again).
// One output per invocation.
//
// Macros:
//   TILED  the workgroup first copies its block and a one-pixel border, (X + 2) x (Y + 2) pixels,
//          into shared memory, each pixel read from device memory once; the nine reads then come
//          from there. Otherwise each invocation reads its nine pixels from device memory, and
//          neighbours' reads overlap (the caches may or may not absorb that: the variants
//          measure it).
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 image float[], 1 blurred float[]; W x H, row-major.
// Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer Image { float image[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Blurred { float blurred[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

float Pixel(ivec2 p) {
  const ivec2 q = clamp(p, ivec2(0), ivec2(width, height) - 1);
  return image[uint(q.y) * width + uint(q.x)];
}

#ifdef TILED
// Sized by the specialization constants: glslang accepts an array whose size is a
// specialization-constant expression, and the driver fixes it when the pipeline is created.
const uint kTileWidth = gl_WorkGroupSize.x + 2;
const uint kTileHeight = gl_WorkGroupSize.y + 2;
shared float tile[kTileWidth * kTileHeight];
#endif

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float sum = 0.0;
#ifdef TILED
  // The tile starts one pixel up and left of the block; it holds more pixels than the group has
  // invocations, so each invocation loads every (X * Y)-th one, in row-major order so that
  // consecutive invocations read consecutive addresses.
  const ivec2 corner = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy) - 1;
  const uint invocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  for (uint k = gl_LocalInvocationIndex; k < kTileWidth * kTileHeight; k += invocations) {
    tile[k] = Pixel(corner + ivec2(k % kTileWidth, k / kTileWidth));
  }
  // Every pixel of the tile is stored before any invocation reads its neighbours'. Invocations
  // outside the image (a partial block at the right or bottom edge) still load and reach this
  // barrier, which all of the group must; they leave only after it.
  barrier();
  if (p.x >= int(width) || p.y >= int(height)) return;
  const ivec2 centre = ivec2(gl_LocalInvocationID.xy) + 1;
  for (int dy = -1; dy <= 1; ++dy) {
    const uint row = uint(centre.y + dy) * kTileWidth;
    for (int dx = -1; dx <= 1; ++dx) sum += tile[row + uint(centre.x + dx)];
  }
#else
  if (p.x >= int(width) || p.y >= int(height)) return;
  // The same order of additions as the tiled variant, so that both round alike.
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) sum += Pixel(p + ivec2(dx, dy));
  }
#endif
  blurred[uint(p.y) * width + uint(p.x)] = sum / 9.0;
}
