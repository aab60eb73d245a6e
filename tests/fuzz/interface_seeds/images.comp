#version 450
// A seed for interface_fuzz: storage and sampled images, texel buffers, separate and combined samplers.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D out_image;
layout(set = 0, binding = 1) uniform sampler2D combined;
layout(set = 0, binding = 2) uniform texture2D tex;
layout(set = 0, binding = 3) uniform sampler samp;
layout(set = 0, binding = 4, r32f) uniform readonly imageBuffer texels;
layout(set = 0, binding = 5) uniform samplerBuffer uniform_texels;
layout(set = 1, binding = 0, rgba32ui) uniform readonly uimage2DArray layers[4];
layout(set = 1, binding = 1) uniform sampler2DArrayShadow shadows;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 c = texture(combined, vec2(p)) + texture(sampler2D(tex, samp), vec2(p)) + imageLoad(texels, p.x) +
           texelFetch(uniform_texels, p.x) + vec4(imageLoad(layers[2], ivec3(p, 0))) + texture(shadows, vec4(0));
  imageStore(out_image, p, c);
}
