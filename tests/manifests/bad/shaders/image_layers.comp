#version 450
// An r32f image of layers at binding 0 copied, layer by layer, into one at binding 1.

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
  for (int l = 0; l < int(layers); ++l) imageStore(dst, ivec3(p, l), imageLoad(src, ivec3(p, l)));
}
