#version 450
// The capture demo's fourth kernel, run only with --chain: total[i] += weight * y[i] over n
// elements, where y is what the scale kernel wrote (set 0 binding 1, its output) earlier in the
// same command buffer. A literal local size of 32; push constants n and weight. Bindings: 1 y
// (read), 2 total (read and written).
layout(local_size_x = 32) in;
layout(push_constant) uniform Params {
  uint n;
  float weight;
} p;
layout(set = 0, binding = 1) readonly buffer Y { float y[]; };
layout(set = 0, binding = 2) buffer Sum { float total[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) total[i] += p.weight * y[i];
}
