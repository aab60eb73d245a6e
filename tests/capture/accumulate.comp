#version 450
// The capture demo's second kernel: acc[i] += factor * src[i] + round, in place, over n elements,
// where round is pair.x + pair.y. A literal local size of 32; push constant n. Bindings: 0 src
// (read), 1 acc (read and written), 2 a uniform buffer (factor, a float, pair).
layout(local_size_x = 32) in;
layout(push_constant) uniform Params {
  uint n;
} p;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) buffer Acc { uint acc[]; };
layout(set = 0, binding = 2) uniform Factor {
  uint factor;
  float unused;
  vec2 pair;
} f;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) acc[i] += f.factor * src[i] + uint(f.pair.x + f.pair.y);
}
