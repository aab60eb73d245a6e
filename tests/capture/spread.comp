#version 450
// The capture demo's sixth kernel, dispatched indirectly with --indirect, at the counts the counts
// kernel wrote just before it: values[i] = 0.5 * i + groups[0] for each invocation, where groups
// is the indirect buffer itself, bound as a storage buffer too. A literal local size of 64; no
// push or specialization constants. Bindings: 0 the counts (read), 1 values (written).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Args { uint groups[3]; };
layout(set = 0, binding = 1) writeonly buffer Values { float values[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = 0.5 * float(i) + float(groups[0]);
}
