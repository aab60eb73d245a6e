#version 450
// An r32f image at binding 0; two outputs as an array of two storage images at binding 1.

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst[2];
layout(push_constant) uniform Size {
  uint width;
  uint height;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  const float v = imageLoad(src, p).x;
  imageStore(dst[0], p, vec4(2.0 * v));
  imageStore(dst[1], p, vec4(v + 1.0));
}
