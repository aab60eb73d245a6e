#version 450
// image_layers: an image of layers (image2DArray) in, one out: each layer l of dst is its layer of
// src scaled by l + 1, plus layer 0 of src: dst[x, y, l] = (l + 1) src[x, y, l] + src[x, y, 0].
//
// Macros: none.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src (r32f storage image of LAYERS layers, read); 1 dst (the same, written); both W x H.
// Push constants: W, H, LAYERS.

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0, r32f) uniform readonly image2DArray src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2DArray dst;
layout(push_constant) uniform Size {
  uint width;
  uint height;
  uint layers;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  const float first = imageLoad(src, ivec3(p, 0)).x;
  for (int l = 0; l < int(layers); ++l) {
    imageStore(dst, ivec3(p, l), vec4(float(l + 1) * imageLoad(src, ivec3(p, l)).x + first));
  }
}
