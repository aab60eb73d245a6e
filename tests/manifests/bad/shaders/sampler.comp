#version 450
// copy.comp that adds a texel of a sampler2D at binding 2, which the manifests using it do not give.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(set = 0, binding = 2) uniform sampler2D lookup;
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = 2.0 * x[i] + texelFetch(lookup, ivec2(0, 0), 0).x;
}
