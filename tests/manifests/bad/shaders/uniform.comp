#version 450
// copy.comp scaled by a uniform buffer at binding 2, which a manifest's [[buffer]] cannot give.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(std140, set = 0, binding = 2) uniform Factors { float factor; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = factor * x[i];
}
