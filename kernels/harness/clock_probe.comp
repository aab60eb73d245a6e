#version 450
// The clock probe: a fixed amount of arithmetic, four independent FMA chains per invocation, and
// one store per invocation, so that its time follows the shader clock and hardly the memory. The
// harness runs it after the device idled, until it is as fast as it was at its best in the
// process (harness/vulkan/clock_probe.cpp).
//
// Macros: none.
// Specialization constants: 0 local size x.
// Bindings: 0 one float per invocation.
// Push constants: iterations (of the four chains).
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) writeonly buffer Sink { float sink[]; };
layout(push_constant) uniform Parameters {
  uint iterations;
};

void main() {
  const float x = float(gl_GlobalInvocationID.x);
  float a = x, b = x + 1.0, c = x + 2.0, d = x + 3.0;
  for (uint i = 0; i < iterations; ++i) {
    a = fma(a, 0.9999, 0.5);
    b = fma(b, 0.9999, 0.5);
    c = fma(c, 0.9999, 0.5);
    d = fma(d, 0.9999, 0.5);
  }
  sink[gl_GlobalInvocationID.x] = a + b + c + d;
}
