#version 450
// y = scale * x over the n elements of x, where n and scale are the header of x's block (members
// before its runtime array) and the elements written are counted by an atomic counter in the
// header of y's block.
// Macro STRIDE: 0 one element per invocation, one atomic add each; 1 a grid-stride loop, one
// atomic add per invocation of the elements it wrote.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 { uint n; float scale; float x[]; } (read), 1 { uint written; float y[]; } (written).
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, binding = 0) readonly buffer X {
  uint n;
  float scale;
  float x[];
};
layout(std430, binding = 1) buffer Y {
  uint written;
  float y[];
};

void main() {
  const uint first = gl_GlobalInvocationID.x;
#if STRIDE
  const uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint count = 0;
  for (uint i = first; i < n; i += step, ++count) y[i] = scale * x[i];
  if (count > 0) atomicAdd(written, count);
#else
  if (first >= n) return;
  y[first] = scale * x[first];
  atomicAdd(written, 1u);
#endif
}
