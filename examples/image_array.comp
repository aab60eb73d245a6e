#version 450
// image_array: from one r32f image, two outputs bound as one array of two storage images
// (`dst[2]`, each element an image of its own): dst[0] = 2 src, dst[1] = src + 1.
//
// Macros: none.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src (r32f storage image, read); 1 dst[2] (r32f storage images, written); all W x H.
// Push constants: W, H.

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
