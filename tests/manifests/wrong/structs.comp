#version 450
// Struct buffers (tests/bench/manifest_cli_test.sh): out[i] from items[i] and a plain input, member
// by member, over a struct with a vector, a uint, an array of floats and a nested struct. Macro
// WRONG: 0 right; 1 the nested member off by one at element 5; 2 `w` left unwritten.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

struct Inner {
  int k;
  float scale;
};

// std430: a at 0, id at 8, w at 12 (stride 4), inner at 24 (k 24, scale 28); a stride of 32.
struct Item {
  vec2 a;
  uint id;
  float w[3];
  Inner inner;
};

layout(std430, binding = 0) readonly buffer In { Item items[]; };
layout(std430, binding = 1) readonly buffer Bias { float bias[]; };
layout(std430, binding = 2) writeonly buffer Out { Item result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  Item item = items[i];
  result[i].a = item.a * item.inner.scale + vec2(bias[i]);
  result[i].id = item.id * 3u;
#if WRONG != 2
  for (int j = 0; j < 3; ++j) result[i].w[j] = item.w[j] + float(j);
#endif
  result[i].inner.k = item.inner.k - 7 + ((WRONG == 1 && i == 5) ? 1 : 0);
  result[i].inner.scale = 1.0;
}
