#version 450
// One explicit Euler step of the Gray-Scott reaction-diffusion system on a W x H grid:
//   u' = u + DT * (DIFF_U * lap(u) - u * v * v + FEED * (1 - u))
//   v' = v + DT * (DIFF_V * lap(v) + u * v * v - (FEED + KILL) * v)
// where lap is the 5-point Laplacian, the four edge neighbours less four times the centre.
// One cell per invocation.
//
// The fields are read through samplers, the new ones written to storage images. The samplers
// take unnormalised (texel) coordinates, filter nearest and clamp to the edge: the centre of texel
// (x, y) is (x + 0.5, y + 0.5), and a neighbour past an edge reads the edge texel, so the clamped
// boundary costs the shader nothing. Vulkan allows unnormalised coordinates only with an explicit
// level of detail of 0 and no offsets, hence textureLod(..., 0.0) with the offset added to the
// coordinate.
//
// Specialization constants: 0, 1 the workgroup's width and height; 2 to 6 the model's rates
//   (their defaults here are the values the manifest sets and its checks are written with).
// Bindings: 0 u_in, 1 v_in (r32f, combined image samplers); 2 u_out, 3 v_out (r32f storage
//   images, written). All W x H. The manifest trades 0 with 2 and 1 with 3 after each step,
//   so no binding is declared readonly or writeonly: each image is read at one and written at the
//   other.
// Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(constant_id = 2) const float DIFF_U = 0.16;
layout(constant_id = 3) const float DIFF_V = 0.08;
layout(constant_id = 4) const float FEED = 0.035;
layout(constant_id = 5) const float KILL = 0.065;
layout(constant_id = 6) const float DT = 1.0;

layout(set = 0, binding = 0) uniform sampler2D u_in;
layout(set = 0, binding = 1) uniform sampler2D v_in;
layout(set = 0, binding = 2, r32f) uniform image2D u_out;
layout(set = 0, binding = 3, r32f) uniform image2D v_out;
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

float Sample(sampler2D field, ivec2 p) {
  return textureLod(field, vec2(p) + 0.5, 0.0).r;
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(width) || p.y >= int(height)) return;
  const float u = Sample(u_in, p);
  const float v = Sample(v_in, p);
  const float lap_u = Sample(u_in, p + ivec2(-1, 0)) + Sample(u_in, p + ivec2(1, 0)) +
                      Sample(u_in, p + ivec2(0, -1)) + Sample(u_in, p + ivec2(0, 1)) - 4.0 * u;
  const float lap_v = Sample(v_in, p + ivec2(-1, 0)) + Sample(v_in, p + ivec2(1, 0)) +
                      Sample(v_in, p + ivec2(0, -1)) + Sample(v_in, p + ivec2(0, 1)) - 4.0 * v;
  const float uvv = u * v * v;
  imageStore(u_out, p, vec4(u + DT * (DIFF_U * lap_u - uvv + FEED * (1.0 - u))));
  imageStore(v_out, p, vec4(v + DT * (DIFF_V * lap_v + uvv - (FEED + KILL) * v)));
}
