#version 450
// image_copy.comp whose src is an rgba8 image (the manifest says r32f).
// Bindings: 0 src (rgba8 image2D, read), 1 dst (r32f image2D, written). Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < int(width) && p.y < int(height)) imageStore(dst, p, imageLoad(src, p));
}
