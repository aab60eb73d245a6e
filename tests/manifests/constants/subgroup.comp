#version 450
// out[i] = 1 where the subgroup size the manifest computed (SUBGROUP_SIZE, pushed) is the one the
// pipeline runs with, else 0 (tests/bench/manifest_cli_test.sh).
// Specialization constants: 0 the workgroup's width. Bindings: 0 out float[n].
// Push constants: n, the expected subgroup size.
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters {
  uint n;
  uint subgroup_size;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = gl_SubgroupSize == subgroup_size ? 1.0 : 0.0;
}
