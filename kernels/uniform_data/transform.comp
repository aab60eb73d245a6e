#version 450
// Transforms positions by their group's matrix: the article's example of group-uniform data that
// a compiler can keep in scalar registers (one copy per wave) when it can prove the address is
// the same for every lane, and must load into vector registers (one copy per lane) otherwise.
//
// Macros:
//   AFFINE    4x3 matrices (three rows) on xyz positions with w = 1 implied, the article's advice
//             for affine transforms; otherwise 4x4 matrices (four rows) on xyzw positions.
//   PER_LANE  the matrix index is gl_GlobalInvocationID.x / elements_per_matrix (a push constant,
//             equal to the group size): the same matrix, but an address no compiler can prove
//             uniform, so each lane loads it. This stands in for the article's typed (texel)
//             buffer, which has no scalar loads: the harness binds storage buffers only.
//             Otherwise the index is gl_WorkGroupID.x, uniform by construction.
// Specialization constants: 0 invocations per workgroup.
// Bindings: 0 positions, 4 floats (xyzw) or 3 (xyz) per element, tightly packed; 1 matrices, one
//   per group, row-major, one vec4 per row; 2 output, the transformed positions, 4 or 3 floats.
// Push constants: count (elements), elements_per_matrix.
layout(local_size_x_id = 0) in;

#ifdef AFFINE
const uint kRows = 3;
#else
const uint kRows = 4;
#endif

layout(std430, binding = 0) readonly buffer Positions { float positions[]; };
layout(std430, binding = 1) readonly buffer Matrices { vec4 rows[]; };
layout(std430, binding = 2) writeonly buffer Output { float results[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint elements_per_matrix;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
#ifdef PER_LANE
  const uint m = i / elements_per_matrix;
#else
  const uint m = gl_WorkGroupID.x;
#endif
#ifdef AFFINE
  // w is known to be 1: neither loaded nor stored.
  const vec4 p = vec4(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2], 1.0);
#else
  const vec4 p = vec4(positions[4 * i], positions[4 * i + 1], positions[4 * i + 2], positions[4 * i + 3]);
#endif
  for (uint r = 0; r < kRows; ++r) results[kRows * i + r] = dot(rows[kRows * m + r], p);
}
