#version 450
// One compare-and-swap step of a bitonic sort over the whole array, in the form whose every
// comparator puts the smaller key first: the first step of a stage pairs each element with its
// mirror in its block of k (i ^ (k - 1)), the later steps with the element j away (i ^ j). So an
// element past the end acts as +infinity and is never moved: any n sorts, not only powers of two.
// A sort of n keys is L (L + 1) / 2 such steps (L = ceil(log2(n))), each dispatch with its own
// (k, j), read from a uniform buffer as game engines' sorts do.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) buffer Keys { uint keys[]; };

layout(std140, binding = 1) uniform Step {
  uint k;  // the size of the blocks being merged, a power of two
  uint j;  // the distance between the elements compared; k / 2 at a stage's first step
};

layout(push_constant) uniform Size { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint partner = 2 * j == k ? i ^ (k - 1) : i ^ j;
  if (i >= n || partner <= i || partner >= n) return;
  const uint a = keys[i], b = keys[partner];
  if (a > b) {
    keys[i] = b;
    keys[partner] = a;
  }
}
