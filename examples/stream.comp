#version 450
// BabelStream's copy (c = a), mul (c = s * a), add (c = a + b) and triad (c = a + s * b) on
// float arrays, by a grid-stride loop, so that any length fits a dispatch of at most 65535
// workgroups. The loop, the accesses and the buffers' qualifiers are the built-in stream
// family's, so that both compile to the same code and take the same device time.
//
// Macros: OP, one of COPY (0), MUL (1), ADD (2), TRIAD (3).
// Specialization constants: 0, 1 the workgroup's width and height (height 1).
// Bindings: 0 a float[], 1 b float[] (read by add and triad only), 2 c float[].
// Push constants: count, scalar.
#define COPY 0
#define MUL 1
#define ADD 2
#define TRIAD 3
#if !defined(OP) || OP < COPY || OP > TRIAD
#error "OP must be 0 (copy), 1 (mul), 2 (add) or 3 (triad)"
#endif

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Parameters {
  uint count;
  float scalar;
};

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
#if OP == COPY
    c[i] = a[i];
#elif OP == MUL
    c[i] = scalar * a[i];
#elif OP == ADD
    c[i] = a[i] + b[i];
#else
    c[i] = a[i] + scalar * b[i];
#endif
  }
}
