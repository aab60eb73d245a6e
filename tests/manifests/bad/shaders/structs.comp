#version 450
// The struct buffers' bad manifests: out[i] = { 2 * in.a, in.id + 1 } over n elements of
// struct Item { vec2 a; uint id; } (std430: a at 0, id at 8, a stride of 16).
// With BAD_MEMBER defined, Item has a mat2 member, which a manifest cannot fill.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

struct Item {
  vec2 a;
  uint id;
#ifdef BAD_MEMBER
  mat2 m;
#endif
};

layout(std430, binding = 0) readonly buffer In { Item items[]; };
layout(std430, binding = 1) writeonly buffer Out { Item result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  result[i].a = 2.0 * items[i].a;
  result[i].id = items[i].id + 1;
#ifdef BAD_MEMBER
  result[i].m = items[i].m;
#endif
}
