#version 450
// texture_array: a weighted sum of three r32f textures bound as one array of combined image
// samplers (`tex[3]`), each element read a texel away from the invocation's own through its own
// sampler: tex[0] one to the left (clamp to edge), tex[1] one to the right (repeat: the last
// column reads the first), tex[2] one up (clamp to border, opaque white: the first row reads 1).
// The weights come from an array of three uniform buffers, one per texture:
//   dst = w[0] tex[0](x - 1, y) + w[1] tex[1](x + 1, y) + w[2] tex[2](x, y - 1).
//
// Macros: RUNTIME (defined: the textures are a runtime-sized array, `tex[]`, sized by the
//   elements the manifest gives, and the invocation picks each through a non-uniform index; this
//   needs descriptor indexing: runtimeDescriptorArray, shaderSampledImageArrayNonUniformIndexing
//   and, as the weights are picked alike, shaderUniformBufferArrayNonUniformIndexing).
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 tex[3] or tex[] (r32f sampled images, nearest filtering); 1 dst (r32f storage image,
//   written); 2 weights[3] (uniform buffers of one float each); images W x H.
// Push constants: W, H.

#ifdef RUNTIME
#extension GL_EXT_nonuniform_qualifier : require
#endif

layout(local_size_x_id = 0, local_size_y_id = 1) in;

#ifdef RUNTIME
layout(set = 0, binding = 0) uniform sampler2D tex[];
#else
layout(set = 0, binding = 0) uniform sampler2D tex[3];
#endif
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(std140, set = 0, binding = 2) uniform Weight { float w; } weights[3];
layout(push_constant) uniform Size {
  uint width;
  uint height;
};

// Where each texture is read from, in texels from the invocation's own.
const vec2 kShift[3] = vec2[3](vec2(-1.0, 0.0), vec2(1.0, 0.0), vec2(0.0, -1.0));

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  const vec2 size = vec2(width, height);
  // Texel centres, so that nearest filtering reads exactly one texel whatever the rounding.
  const vec2 at = vec2(p) + 0.5;
  float sum = 0.0;
#ifdef RUNTIME
  // Each invocation starts at another texture (its x mod 3), so neighbours index the array with
  // different values at once.
  for (int n = 0; n < 3; ++n) {
    const int k = (p.x + n) % 3;
    sum += weights[nonuniformEXT(k)].w * texture(tex[nonuniformEXT(k)], (at + kShift[k]) / size).x;
  }
#else
  for (int k = 0; k < 3; ++k) sum += weights[k].w * texture(tex[k], (at + kShift[k]) / size).x;
#endif
  imageStore(dst, p, vec4(sum));
}
