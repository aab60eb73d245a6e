#version 450
// A 3x3 box blur of an r32f storage image, coordinates clamped to the image, with a planted
// error for the manifest tests: with OFF_BY_ONE defined, the left neighbour of the middle row is
// read from the right instead ((x + 1, y) twice, (x - 1, y) never), so its check must fail.
// Macros: OFF_BY_ONE (optional).
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src, 1 dst (r32f storage images, W x H). Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

float Texel(ivec2 p) {
  return imageLoad(src, clamp(p, ivec2(0), ivec2(width, height) - 1)).r;
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  float sum = 0.0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
#ifdef OFF_BY_ONE
      sum += Texel(p + ivec2(dy == 0 && dx == -1 ? 1 : dx, dy));
#else
      sum += Texel(p + ivec2(dx, dy));
#endif
    }
  }
  imageStore(dst, p, vec4(sum / 9.0));
}
