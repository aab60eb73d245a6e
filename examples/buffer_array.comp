#version 450
// buffer_array: out = a + 2 b + 3 c + 4 d over n floats, the four inputs bound as one array of
// four storage-buffer descriptors (`parts[4]`), each element a buffer of its own. The weights
// differ so that a check tells the elements apart: two elements bound the other way round give a
// different sum.
//
// Macros: none.
// Specialization constants: 0, 1 the workgroup's width and height (height 1 here).
// Bindings: 0 parts[4], each float[n] (elements 0 to 3: a, b, c, d); 1 out float[n].
// Push constants: n.
//
// The elements are indexed by constants: an index that varies at run time (even a loop counter)
// needs the device's shaderStorageBufferArrayDynamicIndexing feature.

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer Part { float v[]; } parts[4];
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters {
  uint n;
};

void main() {
  // A grid-stride loop: any n fits a dispatch of at most 65535 workgroups.
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
    result[i] = parts[0].v[i] + 2.0 * parts[1].v[i] + 3.0 * parts[2].v[i] + 4.0 * parts[3].v[i];
  }
}
