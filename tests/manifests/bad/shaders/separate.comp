#version 450
// A texture2D and a sampler declared apart, paired where the texture is read.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D dst;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, textureLod(sampler2D(tex, smp), (vec2(p) + 0.5) / vec2(textureSize(sampler2D(tex, smp), 0)), 0.0));
}
