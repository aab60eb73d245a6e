#version 450
// image_copy.comp reading src through a combined image sampler (sampler2D) instead.
// Bindings: 0 src (sampler2D), 1 dst (r32f image2D, written). Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < int(width) && p.y < int(height)) imageStore(dst, p, texelFetch(src, p, 0));
}
