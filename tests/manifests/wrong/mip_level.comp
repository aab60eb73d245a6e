#version 450
// Levels 1 and 2 of an r32f image from its level 0 (`src`), through `dst[2]`, two views of one
// image's levels: a level 1 texel the average of the 2x2 texels below it, a level 2 texel that of
// the 4x4. With OFF defined, level 2's texel (1, 2) is one more than it should be.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst[2];
layout(push_constant) uniform Size {
  uint width;
  uint height;
};

float Average(ivec2 at, int side) {
  float sum = 0.0;
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) sum += imageLoad(src, at + ivec2(x, y)).x;
  }
  return sum / float(side * side);
}

void main() {
  const ivec2 q = ivec2(gl_GlobalInvocationID.xy);
  if (q.x < int(width / 2) && q.y < int(height / 2)) imageStore(dst[0], q, vec4(Average(2 * q, 2)));
  if (q.x < int(width / 4) && q.y < int(height / 4)) {
    float v = Average(4 * q, 4);
#ifdef OFF
    if (q == ivec2(1, 2)) v += 1.0;
#endif
    imageStore(dst[1], q, vec4(v));
  }
}
