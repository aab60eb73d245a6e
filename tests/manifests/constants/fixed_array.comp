#version 450
// out[i] = (x, -y) of in[i], through blocks of one fixed-size array each, as code generators
// declare their buffers (tests/bench/manifest_cli_test.sh): the manifest gives each as vec2 elements,
// binding fewer than the array's length.
// Bindings: 0 { vec2 in_data[4096]; }, 1 { vec2 out_data[4096]; }. Push constants: n.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer In { vec2 in_data[4096]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec2 out_data[4096]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) out_data[i] = vec2(in_data[i].x, -in_data[i].y);
}
