#version 450
// out(x, y) = in(x - 1, y) + 2 in(x, y + 1) over an r32f image, neighbours past an edge read at
// the edge, with a planted error for the tests of checks computed on the device: with WRONG
// defined, texel (5, 3) is 0.25 too large. The uint image beside it holds x + 1000 y, and with
// WRONG its texel (6, 2) is one more. WRONG = 2 leaves texel (3, 1) of out unwritten (the poison),
// WRONG = 3 also writes the input at texel (9, 4).
// Macros: WRONG (optional: 1, 2 or 3). Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 in (r32f), 1 out (r32f), 2 index (r32ui).
layout(local_size_x_id = 0, local_size_y_id = 1) in;

#if defined(WRONG) && WRONG == 3
layout(set = 0, binding = 0, r32f) uniform image2D src;
#else
layout(set = 0, binding = 0, r32f) uniform readonly image2D src;
#endif
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform writeonly uimage2D index;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const ivec2 size = imageSize(dst);
  if (p.x >= size.x || p.y >= size.y) return;
  const float left = imageLoad(src, ivec2(max(p.x - 1, 0), p.y)).r;
  const float below = imageLoad(src, ivec2(p.x, min(p.y + 1, size.y - 1))).r;
  float value = left + 2.0 * below;
  uint at = uint(p.x) + 1000u * uint(p.y);
#if defined(WRONG) && WRONG == 1
  if (p == ivec2(5, 3)) value += 0.25;
  if (p == ivec2(6, 2)) at += 1u;
#endif
#if defined(WRONG) && WRONG == 3
  // Every read of src is done by now in this invocation; another's read of (9, 4) may see either value.
  if (p == ivec2(9, 4)) imageStore(src, p, vec4(-1.0));
#endif
#if defined(WRONG) && WRONG == 2
  if (p != ivec2(3, 1))
#endif
  imageStore(dst, p, vec4(value));
  imageStore(index, p, uvec4(at));
}
