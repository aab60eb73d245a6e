#version 450
// dst[i] = 2 src[i] for i below 256, through blocks of one fixed-size array of 256 floats, which
// bench binds over more bytes than that (tests/capture/capture_test.sh: the capture keeps the
// array's 256 elements). Bindings: 0 { float src_data[256]; }, 1 { float dst_data[256]; }.
// Push constants: n.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer Src { float src_data[256]; };
layout(std430, set = 0, binding = 1) buffer Dst { float dst_data[256]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < min(n, 256u)) dst_data[i] = 2.0 * src_data[i];
}
