#version 450
// image_copy.comp whose binding 0 is a storage buffer of floats, not an image.
// Bindings: 0 X float[] (read), 1 dst (r32f image2D, written). Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < int(width) && p.y < int(height)) imageStore(dst, p, vec4(x[p.y * width + p.x]));
}
