#version 450
// Matrix transpose through a 32x32 shared-memory tile, out[x][y] = in[y][x] for a height x width
// row-major matrix: rows of the tile are read from global memory and columns written back, so
// consecutive invocations read tile[tx][j], 32 words apart. With a [32][32] tile those words sit
// in one bank (32 banks of 32-bit words); padding each row to 33 words (the talk's "[16][33]
// instead of [16][32]") puts them in 32 different banks.
//
// Macros: PAD (0: tile[32][32], 1: tile[32][33]).
// Specialization constants: 0 local size x (a multiple of 32: one tile row per 32 invocations).
// Bindings: 0 input float[] (height x width), 1 output float[] (width x height).
// Push constants: width, height.
// One-dimensional groups, each 32 invocations a tile row: lavapipe 22.3 mishandles groups whose x
// extent is narrower than its subgroup (see README, reduction), and the row is all that matters.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { float src[]; };
layout(std430, binding = 1) writeonly buffer Output { float dst[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

const uint kTile = 32;
const uint kPitch = kTile + PAD;  // words per tile row
shared float tile[kTile * kPitch];

void main() {
  const uint tx = gl_LocalInvocationID.x % kTile;
  const uint rows = gl_WorkGroupSize.x / kTile;
  const uint x0 = gl_WorkGroupID.x * kTile;
  const uint y0 = gl_WorkGroupID.y * kTile;
  for (uint j = gl_LocalInvocationID.x / kTile; j < kTile; j += rows) {
    if (x0 + tx < width && y0 + j < height) tile[j * kPitch + tx] = src[(y0 + j) * width + x0 + tx];
  }
  barrier();  // the column read below crosses every invocation's row write above
  for (uint j = gl_LocalInvocationID.x / kTile; j < kTile; j += rows) {
    if (y0 + tx < height && x0 + j < width) dst[(x0 + j) * height + y0 + tx] = tile[tx * kPitch + j];
  }
}
