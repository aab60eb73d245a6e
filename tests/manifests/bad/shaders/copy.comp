#version 450
// The shader of the bad manifests' cases and of tests/manifests/good: out = 2 * x over n floats.
// Macros: none. Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 x float[] (read), 1 out float[] (written). Push constants: n.
// copy.spv is this shader prebuilt: glslangValidator -V --target-env vulkan1.1 -o copy.spv copy.comp
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = 2.0 * x[i];
}
