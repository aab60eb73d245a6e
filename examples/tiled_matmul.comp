#version 450
// C = A * B in float32, all row-major: A is M x K, B is K x N, C is M x N.
//
// Each workgroup computes one tile of C, BM = WG_Y * TM rows by BN = WG_X * TN columns. It walks
// K in slices of TK: the workgroup stages the BM x TK slice of A and the TK x BN slice of B in
// shared memory, every invocation reading a share of both, then each invocation updates its
// TM x TN outputs (its register micro-tile) from the slice. An invocation owns the rows
// ty + i * WG_Y and the columns tx + j * WG_X of the tile (i < TM, j < TN), not a contiguous
// block: neighbouring invocations then read neighbouring words of B's slice and write
// neighbouring words of C, and invocations of one row read the same word of A's slice.
// Any M, N, K: loads outside A or B give zeros and stores outside C are skipped.
//
// Macros:
//   WG_X, WG_Y  the workgroup's width and height (the manifest's workgroup_defines).
//   TM, TN      outputs per invocation along rows and along columns (the register micro-tile).
//   TK          the slice of K staged in shared memory per step.
//   PAD         0 or 1: words added to each row of A's slice in shared memory. Invocations of one
//               subgroup with different ty read A's slice at the same k in rows WG_Y apart; with
//               a row stride that is a multiple of the bank count those reads hit one bank.
//   VEC         1 or 4: how invocations read A and B from device memory into shared memory, one
//               float or one aligned vec4 at a time. The vec4 reads need TK and BN to be
//               multiples of 4 (compile error otherwise) and are taken only where K (for A) or
//               N (for B) is a multiple of 4, which makes every row start 16-byte aligned; the
//               other matrix, or both, are then read one float at a time.
// Specialization constants: none.
// Bindings: 0 A float[M * K] (also read as vec4 under VEC = 4), 1 B float[K * N],
//   2 C float[M * N].
// Push constants: M, N, K.
#extension GL_EXT_control_flow_attributes : require

#if !defined(WG_X) || !defined(WG_Y)
#error "WG_X and WG_Y must be defined (workgroup_defines)"
#endif
#if !defined(TM) || !defined(TN) || !defined(TK) || !defined(PAD) || !defined(VEC)
#error "TM, TN, TK, PAD and VEC must be defined"
#endif
#if TM < 1 || TN < 1 || TK < 1 || PAD < 0
#error "TM, TN and TK must be at least 1, PAD at least 0"
#endif
#if VEC != 1 && VEC != 4
#error "VEC must be 1 or 4"
#endif
#if VEC == 4 && ((TK % 4) != 0 || ((WG_X * TN) % 4) != 0)
#error "VEC = 4 needs TK and WG_X * TN to be multiples of 4"
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

layout(std430, set = 0, binding = 0) readonly buffer MatrixA { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer MatrixB { float b[]; };
#if VEC == 4
// The same memory as vec4s, for the aligned reads.
layout(std430, set = 0, binding = 0) readonly buffer MatrixA4 { vec4 a4[]; };
layout(std430, set = 0, binding = 1) readonly buffer MatrixB4 { vec4 b4[]; };
#endif
layout(std430, set = 0, binding = 2) writeonly buffer MatrixC { float c[]; };
layout(push_constant) uniform Parameters {
  uint M;
  uint N;
  uint K;
};

const uint kRows = WG_Y * TM;     // BM: the tile's rows
const uint kColumns = WG_X * TN;  // BN: the tile's columns
const uint kInvocations = WG_X * WG_Y;
const uint kStrideA = TK + PAD;   // a row of A's slice in shared memory

shared float tile_a[kRows * kStrideA];  // [row][k]
shared float tile_b[TK * kColumns];     // [k][column]

// Stages A[row0 .. row0 + kRows)[k0 .. k0 + TK) and B[k0 .. k0 + TK)[col0 .. col0 + kColumns),
// zeros outside the matrices. Every invocation takes words kInvocations apart; a count that is not
// a multiple of kInvocations leaves the last round part-empty (the test is constant otherwise).
void LoadSlice(uint row0, uint col0, uint k0, uint invocation) {
#if VEC == 4
  if (K % 4u == 0u) {
    const uint kVecs = kRows * TK / 4;
    for (uint round = 0; round < (kVecs + kInvocations - 1) / kInvocations; ++round) {
      const uint e = round * kInvocations + invocation;
      if (kVecs % kInvocations == 0 || e < kVecs) {
        const uint r = e / (TK / 4), k = (e % (TK / 4)) * 4;
        const uint row = row0 + r, col = k0 + k;
        vec4 v = vec4(0.0);
        // K % 4 == 0 and k0 + k % 4 == 0: the vec4 lies wholly inside the row or wholly past it.
        if (row < M && col < K) v = a4[(row * K + col) / 4];
        const uint at = r * kStrideA + k;
        tile_a[at] = v.x;
        tile_a[at + 1] = v.y;
        tile_a[at + 2] = v.z;
        tile_a[at + 3] = v.w;
      }
    }
  } else
#endif
  {
    const uint kWords = kRows * TK;
    for (uint round = 0; round < (kWords + kInvocations - 1) / kInvocations; ++round) {
      const uint e = round * kInvocations + invocation;
      if (kWords % kInvocations == 0 || e < kWords) {
        const uint r = e / TK, k = e % TK;
        const uint row = row0 + r, col = k0 + k;
        float v = 0.0;
        if (row < M && col < K) v = a[row * K + col];
        tile_a[r * kStrideA + k] = v;
      }
    }
  }
#if VEC == 4
  if (N % 4u == 0u) {
    const uint kVecs = TK * kColumns / 4;
    for (uint round = 0; round < (kVecs + kInvocations - 1) / kInvocations; ++round) {
      const uint e = round * kInvocations + invocation;
      if (kVecs % kInvocations == 0 || e < kVecs) {
        const uint k = e / (kColumns / 4), n = (e % (kColumns / 4)) * 4;
        const uint row = k0 + k, col = col0 + n;
        vec4 v = vec4(0.0);
        // col0 is a multiple of kColumns, so of 4: the same argument as for A.
        if (row < K && col < N) v = b4[(row * N + col) / 4];
        const uint at = k * kColumns + n;
        tile_b[at] = v.x;
        tile_b[at + 1] = v.y;
        tile_b[at + 2] = v.z;
        tile_b[at + 3] = v.w;
      }
    }
  } else
#endif
  {
    const uint kWords = TK * kColumns;
    for (uint round = 0; round < (kWords + kInvocations - 1) / kInvocations; ++round) {
      const uint e = round * kInvocations + invocation;
      if (kWords % kInvocations == 0 || e < kWords) {
        const uint k = e / kColumns, n = e % kColumns;
        const uint row = k0 + k, col = col0 + n;
        float v = 0.0;
        if (row < K && col < N) v = b[row * N + col];
        tile_b[k * kColumns + n] = v;
      }
    }
  }
}

void main() {
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint invocation = ty * WG_X + tx;
  const uint row0 = gl_WorkGroupID.y * kRows, col0 = gl_WorkGroupID.x * kColumns;

  float sum[TM * TN];
  [[unroll]] for (uint i = 0; i < TM * TN; ++i) sum[i] = 0.0;

  // Invocations past M or N still stage their share and reach every barrier; only their
  // stores are skipped.
  for (uint k0 = 0; k0 < K; k0 += TK) {
    LoadSlice(row0, col0, k0, invocation);
    // The whole slice is in shared memory before anyone reads it.
    barrier();
    for (uint k = 0; k < TK; ++k) {
      float from_a[TM], from_b[TN];
      [[unroll]] for (uint i = 0; i < TM; ++i) from_a[i] = tile_a[(ty + i * WG_Y) * kStrideA + k];
      [[unroll]] for (uint j = 0; j < TN; ++j) from_b[j] = tile_b[k * kColumns + tx + j * WG_X];
      [[unroll]] for (uint i = 0; i < TM; ++i) {
        [[unroll]] for (uint j = 0; j < TN; ++j) sum[i * TN + j] = fma(from_a[i], from_b[j], sum[i * TN + j]);
      }
    }
    // Everyone has read the slice before the next step overwrites it.
    barrier();
  }

  [[unroll]] for (uint i = 0; i < TM; ++i) {
    const uint row = row0 + ty + i * WG_Y;
    if (row >= M) continue;
    [[unroll]] for (uint j = 0; j < TN; ++j) {
      const uint col = col0 + tx + j * WG_X;
      if (col < N) c[row * N + col] = sum[i * TN + j];
    }
  }
}
