#version 450
// separate_sampler: a texture and a sampler declared apart (texture2D + sampler, as HLSL's Texture2D
// and SamplerState compile), paired where the texture is read. Each texel is read a quarter texel
// left of its centre and a quarter below, so a linear filter mixes it with its left neighbour and
// the next row's texel; at the first column and the last row the address mode says what lies
// beyond. Bindings: 0 the texture, 1 the sampler, 2 the texels read.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D dst;

void main() {
  const ivec2 size = textureSize(sampler2D(tex, smp), 0);
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  const vec2 at = (vec2(p) + vec2(0.25, 0.75)) / vec2(size);
  imageStore(dst, p, textureLod(sampler2D(tex, smp), at, 0.0));
}
