#version 450
// Blocks with headers (tests/bench/manifest_cli_test.sh): y = scale * x over n elements, n and
// scale from x's header; y's header counts the elements written, and an array of structs beside a
// counter (`{ uint part_counter; State state[]; }`) takes one element per invocation and counts
// them. Macro WRONG: 0 right; 1 the count one short; 2 state[7].value off by one.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 { uint n; float scale; float x[]; } (read), 1 { uint written; float y[]; },
// 2 { uint part_counter; State state[]; } (written).
layout(local_size_x_id = 0, local_size_y_id = 1) in;

struct State {
  float value;
  uint index;
};

layout(std430, binding = 0) readonly buffer X {
  uint n;
  float scale;
  float x[];
};
layout(std430, binding = 1) buffer Y {
  uint written;
  float y[];
};
layout(std430, binding = 2) buffer States {
  uint part_counter;
  State state[];
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  y[i] = scale * x[i];
  if (!(WRONG == 1 && i == 3)) atomicAdd(written, 1u);
  const uint part = atomicAdd(part_counter, 1u);
  // Each invocation's element by its own index: the order the counter hands out is the device's.
  state[i].value = x[i] + (WRONG == 2 && i == 7 ? 1.0 : 0.0);
  state[i].index = part < n ? i : 0xffffffffu;
}
