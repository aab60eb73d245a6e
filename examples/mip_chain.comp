#version 450
// mip_chain: a single-pass mip-chain generator. Level 0 of an r32f image is read through `src`;
// levels 1 to 6 are written through `dst[6]`, each element a view of one level, each texel the
// average of the 2x2 texels below it (a coordinate past the edge of a level one texel wide or high
// is clamped, as a check's read is). Each workgroup of 16x16 makes its tile of levels 1 to 4 (16x16,
// 8x8, 4x4 and 2x2 texels), keeping each level in shared memory for the next; then counts itself
// in `arrived`, and the last workgroup to arrive, once every tile of level 4 is written, makes
// levels 5 and 6 of the whole image and sets the counter back to 0 for the next dispatch.
//
// The levels written by other workgroups are read through coherent images after their writers'
// memoryBarrierImage() and the atomic that orders them (the pattern of single-pass downsamplers).
//
// Macros: none.
// Specialization constants: none (the workgroup is 16x16: the tile of levels 1 to 4).
// Bindings: 0 src (r32f storage image, read: level 0); 1 dst[6] (r32f storage images, levels 1 to
// 6); 2 arrived (one uint, 0 before and after each dispatch).
// Push constants: W, H (level 0's size).

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform coherent image2D dst[6];
layout(set = 0, binding = 2, std430) coherent buffer Counter {
  uint arrived;
};
layout(push_constant) uniform Size {
  uint width;
  uint height;
};

shared float tile[16][16];
shared bool last;

ivec2 LevelSize(int level) { return max(ivec2(1), ivec2(width, height) >> level); }

// Level 1 from level 0 at texel q of level 1.
float FromSource(ivec2 q) {
  const ivec2 edge = LevelSize(0) - 1;
  return 0.25 * (imageLoad(src, min(2 * q, edge)).x + imageLoad(src, min(2 * q + ivec2(1, 0), edge)).x +
                 imageLoad(src, min(2 * q + ivec2(0, 1), edge)).x + imageLoad(src, min(2 * q + ivec2(1, 1), edge)).x);
}

// A texel of level `level` (2 to 4) of this workgroup's tile, from the tile of the level before it
// in shared memory: `origin` is that tile's first texel in its level.
float FromTile(ivec2 q, int level, ivec2 origin) {
  const ivec2 edge = LevelSize(level - 1) - 1;
  const ivec2 a = min(2 * q, edge) - origin, b = min(2 * q + 1, edge) - origin;
  return 0.25 * (tile[a.y][a.x] + tile[a.y][b.x] + tile[b.y][a.x] + tile[b.y][b.x]);
}

// Texel q of level `level` (5 or 6) from the level before it in the image `from` (dst[level - 2]).
#define FROM_IMAGE(from, q, level)                                                                 \
  (0.25 * (imageLoad(from, min(2 * q, LevelSize(level - 1) - 1)).x +                               \
           imageLoad(from, min(2 * q + ivec2(1, 0), LevelSize(level - 1) - 1)).x +                 \
           imageLoad(from, min(2 * q + ivec2(0, 1), LevelSize(level - 1) - 1)).x +                 \
           imageLoad(from, min(2 * q + ivec2(1, 1), LevelSize(level - 1) - 1)).x))

// Levels 2 to 4 of the tile: `side` texels a side (8, 4, 2), each from the tile of the level before.
#define TILE_LEVEL(level, side, out)                                                   \
  {                                                                                    \
    const ivec2 origin = ivec2(gl_WorkGroupID.xy) * (2 * side);                        \
    const ivec2 q = ivec2(gl_WorkGroupID.xy) * side + local;                           \
    const bool inside = all(lessThan(local, ivec2(side))) && all(lessThan(q, LevelSize(level))); \
    float v = 0.0;                                                                     \
    if (inside) v = FromTile(q, level, origin);                                        \
    barrier();                                                                         \
    if (inside) {                                                                      \
      tile[local.y][local.x] = v;                                                      \
      imageStore(out, q, vec4(v));                                                     \
    }                                                                                  \
    barrier();                                                                         \
  }

// A level (5 or 6) of the whole image, by the last workgroup: each invocation a texel in turn.
#define IMAGE_LEVEL(level, from, out)                                        \
  {                                                                          \
    const ivec2 size = LevelSize(level);                                     \
    for (int i = int(gl_LocalInvocationIndex); i < size.x * size.y; i += 256) { \
      const ivec2 q = ivec2(i % size.x, i / size.x);                         \
      imageStore(out, q, vec4(FROM_IMAGE(from, q, level)));                  \
    }                                                                        \
    memoryBarrierImage();                                                    \
    barrier();                                                               \
  }

void main() {
  const ivec2 local = ivec2(gl_LocalInvocationID.xy);
  // Level 1: the tile's 16x16 texels from level 0.
  {
    const ivec2 q = ivec2(gl_WorkGroupID.xy) * 16 + local;
    const bool inside = all(lessThan(q, LevelSize(1)));
    float v = 0.0;
    if (inside) {
      v = FromSource(q);
      imageStore(dst[0], q, vec4(v));
    }
    tile[local.y][local.x] = v;
    barrier();
  }
  TILE_LEVEL(2, 8, dst[1])
  TILE_LEVEL(3, 4, dst[2])
  TILE_LEVEL(4, 2, dst[3])

  // The tile's level 4 written for every workgroup: made visible, then counted.
  memoryBarrierImage();
  barrier();
  if (gl_LocalInvocationIndex == 0) {
    last = atomicAdd(arrived, 1u) == gl_NumWorkGroups.x * gl_NumWorkGroups.y - 1u;
  }
  barrier();
  if (!last) return;
  memoryBarrier();

  IMAGE_LEVEL(5, dst[3], dst[4])
  IMAGE_LEVEL(6, dst[4], dst[5])
  if (gl_LocalInvocationIndex == 0) arrived = 0u;
}
