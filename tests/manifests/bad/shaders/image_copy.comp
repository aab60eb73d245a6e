#version 450
// The image cases' shader: dst = src over W x H texels of r32f storage images.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src (r32f image2D, read), 1 dst (r32f image2D, written). Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < int(width) && p.y < int(height)) imageStore(dst, p, imageLoad(src, p));
}
