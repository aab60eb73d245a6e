#version 450
// separate.comp with an array of two samplers at binding 1.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp[2];
layout(set = 0, binding = 2, r32f) uniform writeonly image2D dst;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const vec2 at = (vec2(p) + 0.5) / vec2(textureSize(sampler2D(tex, smp[0]), 0));
  imageStore(dst, p, textureLod(sampler2D(tex, smp[0]), at, 0.0) + textureLod(sampler2D(tex, smp[1]), at, 0.0));
}
