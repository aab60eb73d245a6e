#version 450
// A 3x3x3 binomial blur ([1 2 1] / 4 along each axis, faces clamped) of an RGBA float volume,
// one output voxel per invocation: the article's 3D neighborhood, where a workgroup's tile grows
// by its volume and its border by its surface.
//
// Macros:
//   SHARED_TILE  the workgroup first loads its tile plus a one-voxel border into shared memory
//                ((X + 2) x (Y + 2) x (Z + 2) voxels, each read from device memory once), then
//                filters from there; otherwise every invocation reads its 27 voxels from device
//                memory.
// Specialization constants: 0, 1, 2 the workgroup's extent in x, y, z.
// Bindings: 0 input, RGBA float voxels, x fastest, then y, then z; 1 output, same layout.
// Push constants: width, height, depth.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, binding = 0) readonly buffer Input { vec4 voxels[]; };
layout(std430, binding = 1) writeonly buffer Output { vec4 result[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
  uint depth;
};

const float kWeights[3] = float[3](0.25, 0.5, 0.25);

vec4 Load(ivec3 p) {
  p = clamp(p, ivec3(0), ivec3(width, height, depth) - 1);
  return voxels[(uint(p.z) * height + uint(p.y)) * width + uint(p.x)];
}

#ifdef SHARED_TILE
const uint kTileX = gl_WorkGroupSize.x + 2;
const uint kTileY = gl_WorkGroupSize.y + 2;
const uint kTileZ = gl_WorkGroupSize.z + 2;
const uint kThreads = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
shared vec4 tile[kTileX * kTileY * kTileZ];
#endif

void main() {
  const ivec3 p = ivec3(gl_GlobalInvocationID);
  const bool inside = p.x < int(width) && p.y < int(height) && p.z < int(depth);
  vec4 sum = vec4(0.0);
#ifdef SHARED_TILE
  const ivec3 origin = ivec3(gl_WorkGroupID * gl_WorkGroupSize) - 1;
  for (uint i = gl_LocalInvocationIndex; i < kTileX * kTileY * kTileZ; i += kThreads) {
    tile[i] = Load(origin + ivec3(i % kTileX, (i / kTileX) % kTileY, i / (kTileX * kTileY)));
  }
  // Every load must land before a neighbour reads it; invocations outside the volume load too.
  barrier();
  if (!inside) return;
  const uvec3 l = gl_LocalInvocationID + 1;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        sum += (kWeights[dx + 1] * kWeights[dy + 1] * kWeights[dz + 1]) *
               tile[((l.z + dz) * kTileY + l.y + dy) * kTileX + l.x + dx];
      }
    }
  }
#else
  if (!inside) return;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        sum += (kWeights[dx + 1] * kWeights[dy + 1] * kWeights[dz + 1]) * Load(p + ivec3(dx, dy, dz));
      }
    }
  }
#endif
  result[(uint(p.z) * height + uint(p.y)) * width + uint(p.x)] = sum;
}
