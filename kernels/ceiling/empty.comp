#version 450
// The cost of a dispatch: one workgroup whose first invocation writes one word (the push
// constant), so that the check sees the dispatch ran and no driver can drop it as empty.
//
// Macros: none.
// Specialization constants: 0 local size x.
// Bindings: 0 one uint.
// Push constants: value.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) writeonly buffer Result { uint result[]; };
layout(push_constant) uniform Parameters { uint value; };

void main() {
  if (gl_GlobalInvocationID.x == 0) result[0] = value;
}
