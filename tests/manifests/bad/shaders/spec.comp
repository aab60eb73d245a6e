#version 450
// copy.comp with three more specialization constants, each of its own type, for the manifests
// that give them bad values. Specialization constants: 0, 1 the workgroup's width and height;
// 2 PER_ITEM (int), 3 STRIDE (uint), 4 SCALE (float). Bindings and push constants: copy.comp's.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(constant_id = 2) const int PER_ITEM = 1;
layout(constant_id = 3) const uint STRIDE = 1u;
layout(constant_id = 4) const float SCALE = 2.0;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x * STRIDE;
  if (i < n) result[i] = SCALE * float(PER_ITEM) * x[i];
}
