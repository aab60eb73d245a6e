#version 450
// C = A * B in float32, row-major (A is M x K, B is K x N, C is M x N), one output per
// invocation, read straight from device memory: the reference tiled_matmul.comp is checked
// against. It adds the products in the order k = 0, 1, ... with fma, as the tiled kernel does, so
// the two differ only where a compiler reorders them.
//
// Macros: WG_X, WG_Y, the workgroup's width and height (the manifest's workgroup_defines). Any
//   other macro (the tiled kernel's TM, TN, TK, PAD, VEC) is ignored.
// Specialization constants: none.
// Bindings: 0 A float[M * K], 1 B float[K * N], 2 C float[M * N].
// Push constants: M, N, K.
#if !defined(WG_X) || !defined(WG_Y)
#error "WG_X and WG_Y must be defined (workgroup_defines)"
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

layout(std430, set = 0, binding = 0) readonly buffer MatrixA { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer MatrixB { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer MatrixC { float c[]; };
layout(push_constant) uniform Parameters {
  uint M;
  uint N;
  uint K;
};

void main() {
  const uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
  if (row >= M || col >= N) return;
  float sum = 0.0;
  for (uint k = 0; k < K; ++k) sum = fma(a[row * K + k], b[k * N + col], sum);
  c[row * N + col] = sum;
}
