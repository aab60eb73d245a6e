#version 450
// copy.comp with its local size from the macro WG_SIZE (a manifest's workgroup_defines), not
// from specialization constants. Bindings and push constants: copy.comp's.
layout(local_size_x = WG_SIZE) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = 2.0 * x[i];
}
