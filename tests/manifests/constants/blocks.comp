#version 450
// A uniform buffer and a push block given by their members' names (tests/bench/manifest_cli_test.sh):
// out[i] = x[i] * params.scale + params.offset.y + params.table[i % 4] + float(push.bias), with
// std140 offsets (a vec4 after a float, an array of floats 16 bytes apart), in set 1.
// Bindings: set 0: 0 x float[n], 1 out float[n]; set 1: 0 Params (uniform). Push constants: n, bias.
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(std140, set = 1, binding = 0) uniform Params {
  float scale;
  vec4 offset;
  float table[4];
} params;
layout(push_constant) uniform Push {
  uint n;
  int bias;
} push;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < push.n) result[i] = x[i] * params.scale + params.offset.y + params.table[i % 4] + float(push.bias);
}
