#version 450
// image_copy.comp that declares its output dst readonly (it reads both images and writes
// nothing), so the manifest's output image is one the shader cannot write.
// Bindings: 0 src, 1 dst (r32f image2D, both readonly). Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform readonly image2D dst;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < int(width) && p.y < int(height) && imageLoad(src, p).r < imageLoad(dst, p).r) return;
}
