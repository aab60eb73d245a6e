#version 450
// The STREAM triad, a = b + s * c over n floats: the source of triad.spv, the prebuilt module
// examples/triad_spv.toml measures. Rebuild it with
//   glslangValidator -V --target-env vulkan1.1 -o examples/spirv/triad.spv examples/spirv/triad.comp
// Specialization constants: 0 the workgroup's width; 1 SCALE, s (default 3.0).
// Bindings: 0 b float[n], 1 c float[n], 2 a float[n]. Push constants: n.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float SCALE = 3.0;

layout(std430, set = 0, binding = 0) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 1) readonly buffer C { float c[]; };
layout(std430, set = 0, binding = 2) writeonly buffer A { float a[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) a[i] = b[i] + SCALE * c[i];
}
