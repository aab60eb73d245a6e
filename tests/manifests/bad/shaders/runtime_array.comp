#version 450
#extension GL_EXT_nonuniform_qualifier : require
// out[i] = parts[i % n].v[i]: a runtime-sized array of storage buffers at binding 0.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer Part { float v[]; } parts[];
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
layout(push_constant) uniform Size { uint n; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  r[i] = parts[nonuniformEXT(i % n)].v[i];
}
