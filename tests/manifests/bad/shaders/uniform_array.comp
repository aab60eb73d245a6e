#version 450
// out = w[0].scale * x + w[1].scale: two uniform buffers as an array at binding 2.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
layout(std140, binding = 2) uniform Weight { float scale; } w[2];
void main() {
  const uint i = gl_GlobalInvocationID.x;
  r[i] = w[0].scale * x[i] + w[1].scale;
}
