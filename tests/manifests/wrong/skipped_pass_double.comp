#version 450
// Pass 1 of tests/manifests/wrong/skipped_pass.toml: b[i] = 2 * a[i] for i < n.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 a float[n], 1 b float[n] (read by pass 2, so not writeonly), 2 c float[n], declared
//   and left alone: every buffer of the family must be declared by some pass of each variant, and
//   in first_only this is the only pass. Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) b[i] = 2.0 * a[i];
}
