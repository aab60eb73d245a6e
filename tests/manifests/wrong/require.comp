#version 450
// The kernel of tests/manifests/wrong/require.toml: out[i] = i (sorted), or with REVERSED defined
// out[i] = n - 1 - i (sorted the wrong way, which [require] must catch).
// Macros: REVERSED (optional).
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 out uint[n] (written). Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) writeonly buffer Out { uint result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
#ifdef REVERSED
  result[i] = n - 1 - i;
#else
  result[i] = i;
#endif
}
