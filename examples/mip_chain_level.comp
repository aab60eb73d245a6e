#version 450
// mip_chain_level: one level of a mip chain in a pass of its own: level LEVEL (1 to 6) of an r32f
// image, each texel the average of the 2x2 texels of level LEVEL - 1 below it (a coordinate past
// the edge of a level one texel wide or high is clamped). Level 0 is read through `src`, the others
// through `dst[6]`, each element a view of one level; the passes run in order, each after the one
// before has finished.
//
// Macros: LEVEL (1 to 6), the level written.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src (r32f storage image: level 0); 1 dst[6] (r32f storage images, levels 1 to 6);
// 2 arrived (the single pass's counter, declared so that the family's resources are all bound;
// these passes leave it at 0).
// Push constants: W, H (level 0's size).

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform image2D dst[6];
layout(set = 0, binding = 2, std430) buffer Counter {
  uint arrived;
};
layout(push_constant) uniform Size {
  uint width;
  uint height;
};

ivec2 LevelSize(int level) { return max(ivec2(1), ivec2(width, height) >> level); }

#if LEVEL == 1
#define READ(p) imageLoad(src, p).x
#else
#define READ(p) imageLoad(dst[LEVEL - 2], p).x
#endif

void main() {
  const ivec2 q = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(q, LevelSize(LEVEL)))) return;
  const ivec2 edge = LevelSize(LEVEL - 1) - 1;
  const float v = 0.25 * (READ(min(2 * q, edge)) + READ(min(2 * q + ivec2(1, 0), edge)) +
                          READ(min(2 * q + ivec2(0, 1), edge)) + READ(min(2 * q + ivec2(1, 1), edge)));
  imageStore(dst[LEVEL - 1], q, vec4(v));
}
