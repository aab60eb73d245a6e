#version 450
// Two sampled inputs as an array of combined image samplers at binding 0; dst at binding 1.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(set = 0, binding = 0) uniform sampler2D src[2];
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, texelFetch(src[0], p, 0) + texelFetch(src[1], p, 0));
}
