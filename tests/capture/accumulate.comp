#version 450
// The capture demo's second kernel: acc[i] += 2 * src[i], in place, over n elements.
// A literal local size of 32; push constant n. Bindings: 0 src (read), 1 acc (read and written).
layout(local_size_x = 32) in;
layout(push_constant) uniform Params {
  uint n;
} p;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) buffer Acc { uint acc[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) acc[i] += 2u * src[i];
}
