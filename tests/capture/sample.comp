#version 450
// sample: each texel of an rgba8 texture read through a combined image sampler a quarter texel
// past its centre in x and y, into a storage buffer of vec4s, one per texel. Linear filtering
// mixes each texel with its left neighbour and with the next row's texel (one part in four each
// way), and at the first column and the last row the sampler's address mode says what lies
// beyond: a replay with another filter or address gives other values there.
// Bindings: 0 the texture (sampler2D), 1 the texels read (vec4 per texel, row by row).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) writeonly buffer Texels { vec4 texels[]; };

void main() {
  ivec2 size = textureSize(tex, 0);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  vec2 at = (vec2(p) + vec2(0.25, 0.75)) / vec2(size);
  texels[p.y * size.x + p.x] = textureLod(tex, at, 0.0);
}
