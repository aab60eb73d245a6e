#version 450
// The capture demo's first kernel: y = x * SCALE + add over n elements.
// Specialization constants: 0 is the local size (local_size_x_id), 1 is SCALE.
// Push constants: n, add. Bindings: 0 x (read), 1 y (written).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float SCALE = 1.0;
layout(push_constant) uniform Params {
  uint n;
  float add;
} p;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float y[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = x[i] * SCALE + p.add;
}
