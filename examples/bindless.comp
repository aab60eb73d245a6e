#version 450
#extension GL_EXT_nonuniform_qualifier : require
// bindless: a gather through a runtime-sized array of storage buffers (`parts[]`, descriptor
// indexing): element i of the output reads element i of buffer parts[i % N], each invocation its
// own buffer, and scales it by the buffer's number plus one:
//   out[i] = (k + 1) * parts[k].v[i], k = i % N.
// The index differs between neighbouring invocations, so it is marked nonuniformEXT: the shader
// needs runtimeDescriptorArray and shaderStorageBufferArrayNonUniformIndexing.
//
// Macros: none.
// Specialization constants: 0 the workgroup's width.
// Bindings: 0 parts[] (float, readonly; the manifest gives N of them, each W long); 1 out (float,
//   W, written).
// Push constants: W, N (the number of buffers in parts).

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Part { float v[]; } parts[];
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
layout(push_constant) uniform Size {
  uint count;
  uint buffers;
};

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
    const uint k = i % buffers;
    r[i] = float(k + 1) * parts[nonuniformEXT(k)].v[i];
  }
}
