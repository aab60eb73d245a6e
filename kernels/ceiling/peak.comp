#version 450
// The compute peaks: each invocation runs 16 independent multiply-add chains, x = x * a + b, for
// `trips` trips of 16 steps each (unrolled, so that a trip's loop counter costs 3 instructions
// beside 256 multiply-adds), then writes the sum (or, for integers, the XOR) of its chains. 16
// chains give every warp (wave) more independent work than any GPU's multiply-add latency needs
// at a full occupancy, and the trips keep the dispatch long enough (milliseconds at the large
// domain) for its launch and tail to vanish. The start of each chain depends on the invocation's
// index modulo 1024 and the chain, so the check can compute every result on the host from 1024
// starts; a < 1 (for floats) keeps the chains bounded, so rounding differences decay.
//
// Macros: KIND  0 float (vec4 chains, one FMA is 2 FLOP), 1 float16 (f16vec2 chains: one packed
//               FMA is 2 FMAs, 4 FLOP; needs shaderFloat16), 2 uint (uvec4 chains of
//               wrap-around multiply-adds, 2 operations each).
// Specialization constants: 0 local size x.
// Bindings: 0 one 32-bit result per invocation (a float's bits, or a uint).
// Push constants: count (invocations), trips, a, b (float), ia, ib (uint).
#if KIND == 1
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) writeonly buffer Results { uint results[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint trips;
  float a;
  float b;
  uint ia;
  uint ib;
};

// The start of chain `chain` (0..15) of an invocation whose index modulo 1024 is `seed`: the
// same function as kernels/ceiling/reference.cpp's.
float FloatStart(uint seed, uint chain) { return float(seed) * (1.0 / 512.0) + float(chain) * (1.0 / 64.0); }
uint UintStart(uint seed, uint chain) { return seed * 2654435761u + chain * 40503u + 1u; }

void main() {
  // A two-dimensional grid: the large domain needs more than 65535 workgroups along x.
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint index = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (index >= count) return;
  const uint seed = index & 1023u;
#if KIND == 0
  vec4 x[4];
  [[unroll]] for (uint c = 0; c < 4; ++c) {
    x[c] = vec4(FloatStart(seed, 4 * c), FloatStart(seed, 4 * c + 1), FloatStart(seed, 4 * c + 2),
                FloatStart(seed, 4 * c + 3));
  }
  const vec4 va = vec4(a);
  const vec4 vb = vec4(b);
  for (uint t = 0; t < trips; ++t) {
    [[unroll]] for (uint s = 0; s < 16; ++s) {
      [[unroll]] for (uint c = 0; c < 4; ++c) x[c] = fma(x[c], va, vb);
    }
  }
  float sum = 0.0;
  [[unroll]] for (uint c = 0; c < 4; ++c) sum += ((x[c].x + x[c].y) + (x[c].z + x[c].w));
  results[index] = floatBitsToUint(sum);
#elif KIND == 1
  f16vec2 x[8];
  [[unroll]] for (uint c = 0; c < 8; ++c) {
    x[c] = f16vec2(float16_t(FloatStart(seed, 2 * c)), float16_t(FloatStart(seed, 2 * c + 1)));
  }
  const f16vec2 va = f16vec2(float16_t(a));
  const f16vec2 vb = f16vec2(float16_t(b));
  for (uint t = 0; t < trips; ++t) {
    [[unroll]] for (uint s = 0; s < 16; ++s) {
      [[unroll]] for (uint c = 0; c < 8; ++c) x[c] = fma(x[c], va, vb);
    }
  }
  float sum = 0.0;
  [[unroll]] for (uint c = 0; c < 8; ++c) sum += (float(x[c].x) + float(x[c].y));
  results[index] = floatBitsToUint(sum);
#else
  uvec4 x[4];
  [[unroll]] for (uint c = 0; c < 4; ++c) {
    x[c] = uvec4(UintStart(seed, 4 * c), UintStart(seed, 4 * c + 1), UintStart(seed, 4 * c + 2),
                 UintStart(seed, 4 * c + 3));
  }
  for (uint t = 0; t < trips; ++t) {
    [[unroll]] for (uint s = 0; s < 16; ++s) {
      [[unroll]] for (uint c = 0; c < 4; ++c) x[c] = x[c] * ia + ib;
    }
  }
  uint folded = 0u;
  [[unroll]] for (uint c = 0; c < 4; ++c) folded ^= (x[c].x ^ x[c].y) ^ (x[c].z ^ x[c].w);
  results[index] = folded;
#endif
}
