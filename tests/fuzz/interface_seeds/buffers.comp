#version 450
// A seed for interface_fuzz: buffers of every kind of element, push constants, specialization
// constants of several types and a workgroup size taken from them.
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x_id = 0, local_size_y = 4) in;
layout(constant_id = 1) const int kTaps = 3;
layout(constant_id = 2) const double kScale = 0.5lf;
layout(constant_id = 3) const bool kFlag = true;
struct Particle { vec4 pos; vec4 vel; float mass; };
layout(std430, binding = 0) readonly buffer Particles { uint count; Particle particles[]; };
layout(std430, set = 1, binding = 0) writeonly buffer Halves { f16vec2 pairs[2]; float16_t halves[]; };
layout(std430, set = 1, binding = 1) buffer Bytes { u8vec4 bytes[]; } byte_blocks[2];
layout(std140, binding = 2) uniform Params { vec3 dir; float weights[kTaps]; layout(row_major) mat2x3 m; dmat2 d; };
layout(push_constant) uniform Push { uint n; i64vec2 range; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  halves[i] = float16_t(particles[i].mass * weights[1] * float(kScale) * m[0][0] * float(d[0][0]) * float(kFlag));
  byte_blocks[1].bytes[i] = u8vec4(pc.n + uint(pc.range.x) + count);
}
