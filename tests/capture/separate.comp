#version 450
// separate: sample.comp with the texture and its sampler declared apart (a texture2D and a
// sampler, paired where it reads): each texel of an rgba8 texture read a quarter texel past its
// centre in x and y, into a storage buffer of vec4s, one per texel. Linear filtering mixes each
// texel with its left neighbour and with the next row's texel, and at the first column and the
// last row the sampler's address mode says what lies beyond.
// Bindings: 0 the texture (texture2D), 1 the texels read (vec4 per texel, row by row), 2 the sampler.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) writeonly buffer Texels { vec4 texels[]; };
layout(set = 0, binding = 2) uniform sampler smp;

void main() {
  ivec2 size = textureSize(sampler2D(tex, smp), 0);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  vec2 at = (vec2(p) + vec2(0.25, 0.75)) / vec2(size);
  texels[p.y * size.x + p.x] = textureLod(sampler2D(tex, smp), at, 0.0);
}
