#version 450
// The one shader of tests/manifests/wrong/rebind.toml's passes: dst = 2 * src for i < n. A pass's
// `bind` decides which buffers sit at its two slots.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 src float[n] (read), 1 dst float[n] (written). Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) dst[i] = 2.0 * src[i];
}
