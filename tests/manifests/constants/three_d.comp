#version 450
// A 3-D domain and 3-D workgroups (tests/bench/manifest_cli_test.sh): each invocation writes its own
// linear index, z * W * H + y * W + x, where it is inside the domain, and the local size it ran with
// into `sizes`. Specialization constants: 0, 1, 2 the workgroup. Push constants: W, H, D.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, binding = 0) writeonly buffer Out { float result[]; };
layout(std430, binding = 1) writeonly buffer Sizes { uint sizes[]; };
layout(push_constant) uniform Parameters { uint w, h, d; };

void main() {
  const uvec3 id = gl_GlobalInvocationID;
  if (id.x >= w || id.y >= h || id.z >= d) return;
  const uint i = (id.z * h + id.y) * w + id.x;
  result[i] = float(i);
  sizes[i] = gl_WorkGroupSize.x * 10000u + gl_WorkGroupSize.y * 100u + gl_WorkGroupSize.z;
}
