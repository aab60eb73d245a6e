#version 450
// A leaky ReLU written as a framework writes its shaders: its types, loads and stores come from a
// preamble the framework generates (examples/preamble_common.glsl), and so does its local size.
// Alone, this file does not compile.
//
// Macros (from the preamble): sfp, afp, buffer_ld1(buf, i), buffer_st1(buf, i, v); from the
// variant: activation(x), a function-like macro of `defines`, or a function of the variant's own
// preamble.
// Specialization constants: 233, 234, 235 the workgroup's size (declared in the preamble).
// Bindings: 0 bottom sfp[], 1 top sfp[], n of each.
// Push constants: n.
layout(std430, binding = 0) readonly buffer bottom_blob { sfp bottom_blob_data[]; };
layout(std430, binding = 1) writeonly buffer top_blob { sfp top_blob_data[]; };
layout(push_constant) uniform parameter {
  uint n;
} p;

void main() {
  const uint gx = gl_GlobalInvocationID.x;
  if (gx >= p.n) return;
  const afp v = buffer_ld1(bottom_blob_data, gx);
  buffer_st1(top_blob_data, gx, activation(v));
}
