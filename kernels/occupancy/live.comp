#version 450
// The article's large-group resource test: every invocation keeps LIVE float values alive through
// ROUNDS rounds of exchange with a partner invocation through shared memory, 32 bytes of shared
// memory per invocation (32 KiB for a 1024-invocation group, the D3D11 maximum the article's
// solver used). Registers grow with LIVE, so LIVE decides how many groups fit a compute unit at
// once, as the article's 48 -> 32 VGPRs did; the 256- and 64-invocation groups do the same work
// with proportionally less shared memory per group.
//
// Macros:
//   LIVE    values each invocation keeps alive across the rounds (16, 32, 48, 64; at least 8).
//   SHARED_VEC4  when set, the vec4 slots of shared memory the group declares (>= 2 an
//           invocation), to limit groups an SM by shared memory alone.
//   ROUNDS  exchange rounds (a loop kept rolled, so LIVE, not unrolled code, sets the registers).
// Specialization constants: 0 invocations per workgroup (a multiple of 64: partners differ only
//   in the low six bits of the invocation index, so the result does not depend on the group size).
// Bindings: 0 input, one vec4 seed per invocation; 1 output, one float per invocation: the
//   average of its LIVE values after the last round.
// Push constants: count, the number of invocations with an output.
#extension GL_EXT_control_flow_attributes : require

#ifndef LIVE
#define LIVE 32
#endif
#ifndef ROUNDS
#define ROUNDS 16
#endif

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { vec4 seeds[]; };
layout(std430, binding = 1) writeonly buffer Output { float results[]; };
layout(push_constant) uniform Parameters { uint count; };

#ifdef SHARED_VEC4
// Declared larger than the exchange needs (at least 2 vec4 an invocation): only the first
// 2 * local size are used; the size decides how many groups an SM can hold.
shared vec4 exchange[SHARED_VEC4];
#else
shared vec4 exchange[2 * gl_WorkGroupSize.x];
#endif

void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint l = gl_LocalInvocationIndex;
  // Invocations past the end still take part in every barrier, with a valid seed.
  const vec4 seed = seeds[min(i, count - 1)];
  float v[LIVE];
  [[unroll]] for (uint k = 0; k < LIVE; ++k) v[k] = fract(seed[k & 3] + float(k) * 0.1234);
  [[dont_unroll]] for (uint r = 0; r < ROUNDS; ++r) {
    exchange[2 * l] = vec4(v[0], v[1], v[2], v[3]);
    exchange[2 * l + 1] = vec4(v[4], v[5], v[6], v[7]);
    // The partner's stores must land before this invocation reads them ...
    barrier();
    const uint partner = l ^ (1u << (r % 6));
    const vec4 a = exchange[2 * partner];
    const vec4 b = exchange[2 * partner + 1];
    // ... and every read must be done before the next round overwrites the slots.
    barrier();
    // Each value depends on itself, the partner and its successor: none can be dropped or
    // recomputed from the seed, so all LIVE stay in registers across the barriers.
    [[unroll]] for (uint k = 0; k < LIVE; ++k) {
      const float n = (k & 4) != 0 ? b[k & 3] : a[k & 3];
      v[k] = 0.5 * v[k] + 0.25 * n + 0.25 * v[(k + 1) % LIVE];
    }
  }
  float sum = 0.0;
  [[unroll]] for (uint k = 0; k < LIVE; ++k) sum += v[k];
  if (i < count) results[i] = sum / float(LIVE);
}
