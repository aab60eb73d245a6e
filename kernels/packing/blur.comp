#version 450
// The neighborhood family's 3x3 binomial blur ([1 2 1] / 4 along each axis, edges clamped) with
// a shared-memory tile, in 32- or 16-bit floats: the article's advice to pack post-processing
// data (LDR or tone-mapped) into fp16, halving memory traffic, shared memory and registers.
//
// Macros:
//   HALF_STORAGE  pixels are f16vec4 in device memory (VK_KHR_16bit_storage); otherwise vec4.
//   HALF_MATH     the shared tile and the arithmetic are f16vec4 / float16_t (shaderFloat16);
//                 otherwise vec4 / float. Both need HALF_STORAGE's extensions to be declared.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 input, RGBA pixels, row-major; 1 output, same layout and type.
// Push constants: width, height.
#if defined(HALF_STORAGE) || defined(HALF_MATH)
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

#ifdef HALF_STORAGE
#define StoredPixel f16vec4
#else
#define StoredPixel vec4
#endif
#ifdef HALF_MATH
#define Pixel f16vec4
#define Scalar float16_t
#else
#define Pixel vec4
#define Scalar float
#endif

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, binding = 0) readonly buffer Input { StoredPixel pixels[]; };
layout(std430, binding = 1) writeonly buffer Output { StoredPixel result[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

// Powers of two: exact in both precisions, so only the sums round differently.
const Scalar kWeights[3] = Scalar[3](Scalar(0.25), Scalar(0.5), Scalar(0.25));

const uint kTileX = gl_WorkGroupSize.x + 2;
const uint kTileY = gl_WorkGroupSize.y + 2;
const uint kThreads = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
shared Pixel tile[kTileX * kTileY];

Pixel Load(ivec2 p) {
  p = clamp(p, ivec2(0), ivec2(width, height) - 1);
  return Pixel(pixels[uint(p.y) * width + uint(p.x)]);
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const ivec2 origin = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy) - 1;
  for (uint i = gl_LocalInvocationIndex; i < kTileX * kTileY; i += kThreads) {
    tile[i] = Load(origin + ivec2(i % kTileX, i / kTileX));
  }
  // Every load must land before a neighbour reads it; invocations past the edge load too.
  barrier();
  if (p.x >= int(width) || p.y >= int(height)) return;
  const uvec2 l = gl_LocalInvocationID.xy + 1;
  Pixel sum = Pixel(0.0);
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      sum += (kWeights[dx + 1] * kWeights[dy + 1]) * tile[(l.y + dy) * kTileX + l.x + dx];
    }
  }
  result[uint(p.y) * width + uint(p.x)] = StoredPixel(sum);
}
