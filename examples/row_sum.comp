#version 450
// Row sums of a W x H matrix, four rows a workgroup: the workgroup's width (a specialization
// constant) reduces a row with subgroupAdd, and where it holds several subgroups they meet in
// shared memory. The height is literal, as engines write the fixed part of their sizes. The width
// must be a multiple of the subgroup size (the manifest gives SUBGROUP_SIZE or 4 * SUBGROUP_SIZE),
// so that no subgroup spans two rows.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0, local_size_y = 4) in;

layout(std430, binding = 0) readonly buffer Matrix { float a[]; };
layout(std430, binding = 1) writeonly buffer Sums { float sums[]; };
layout(push_constant) uniform Size {
  uint width;
  uint height;
};

shared float partial[4][32];  // a row's subgroups' sums (a width of up to 32 subgroups)

void main() {
  const uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  const uint row = gl_WorkGroupID.x * 4 + y;
  float sum = 0;
  if (row < height) {
    for (uint col = x; col < width; col += gl_WorkGroupSize.x) sum += a[row * width + col];
  }
  sum = subgroupAdd(sum);
  if (subgroupElect()) partial[y][x / gl_SubgroupSize] = sum;
  barrier();
  if (x == 0 && row < height) {
    float total = 0;
    for (uint s = 0; s < gl_WorkGroupSize.x / gl_SubgroupSize; ++s) total += partial[y][s];
    sums[row] = total;
  }
}
