#version 450
// Pass 2 of tests/manifests/wrong/skipped_pass.toml: c[i] = b[i] + 1 for i < n, reading what
// pass 1 wrote.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 1 b float[n] (written by pass 1, so not readonly), 2 c float[n]. Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 1) buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) c[i] = b[i] + 1.0;
}
