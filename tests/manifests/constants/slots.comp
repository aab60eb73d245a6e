#version 450
// One buffer declared twice (a readonly view in set 0 and a writable one in set 1) and an image
// at two bindings: the manifest gives each resource once, at every slot it sits at.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float seen[]; };
layout(set = 1, binding = 2, std430) buffer Out { float data[]; };
layout(set = 0, binding = 1, r32f) uniform readonly image2D level_a;
layout(set = 1, binding = 0, r32f) uniform readonly image2D level_b;
layout(push_constant) uniform Push { uint n; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  const ivec2 texel = ivec2(int(i % 8u), 0);
  data[i] = 2.0 * seen[i] + imageLoad(level_a, texel).r - imageLoad(level_b, texel).r;
}
