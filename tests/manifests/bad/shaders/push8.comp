#version 450
// copy.comp whose push-constant block holds two 32-bit members (8 bytes): n and scale.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters {
  uint n;
  float scale;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = scale * x[i];
}
