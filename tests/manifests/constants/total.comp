#version 450
// total += k[i] over n uints, by atomic adds into a block of one member and no runtime array
// (tests/bench/manifest_cli_test.sh): the manifest gives it as one uint element.
// Specialization constants: 0 the workgroup's width. Bindings: 0 k uint[n], 1 { uint total; }.
// Push constants: n.
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer K { uint k[]; };
layout(std430, set = 0, binding = 1) buffer Total { uint total; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) atomicAdd(total, k[i]);
}
