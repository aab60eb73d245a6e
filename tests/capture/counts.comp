#version 450
// The capture demo's fifth kernel, run only with --indirect: writes the VkDispatchIndirectCommand
// that covers n elements at the spread kernel's local size of 64, (ceil(n / 64), 1, 1), into the
// buffer the next dispatch reads its workgroup counts from. One invocation; push constant n.
// Bindings: 0 the three counts (written).
layout(local_size_x = 1) in;
layout(push_constant) uniform Params {
  uint n;
} p;
layout(set = 0, binding = 0) writeonly buffer Args { uint groups[3]; };

void main() {
  groups[0] = (p.n + 63u) / 64u;
  groups[1] = 1u;
  groups[2] = 1u;
}
