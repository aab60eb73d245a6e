#version 450
// A 3-D storage image in and one out: every texel doubled plus its depth.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0, r32f) uniform readonly image3D src;
layout(binding = 1, r32f) uniform writeonly image3D dst;
void main() {
  const ivec3 p = ivec3(gl_GlobalInvocationID);
  if (any(greaterThanEqual(p, imageSize(dst)))) return;
  imageStore(dst, p, vec4(2.0 * imageLoad(src, p).r + float(p.z)));
}
