// Shared by the reduction kernels: bindings, parameters, and the per-invocation fetch.
//
// Macros: FETCH_X, FETCH_Y  pixels each invocation reads before the shared-memory reduction,
//                           as a FETCH_X x FETCH_Y block of adjacent pixels (the studies' layout).
//         TILES_PER_GROUP       tiles each workgroup reduces in turn (subgroup.comp), where
//                               a workgroup a tile is 1: fewer, longer-lived workgroups, whose
//                               next tile's loads start while the others still finish theirs.
// Fault injection, for the tests and the regression workflow (never in the variant table):
//   INJECT_ERROR  scales every output by 1.0001, which the reference check must catch;
//   SLOWDOWN=n    n dependent multiply-adds per output before the store, a deliberately slower kernel.
// Specialization constants: 0 invocations per workgroup (x * y); 3, 4 the workgroup's logical
//   shape x, y. The pipeline's local size is one-dimensional and the 2D position is derived from
//   gl_LocalInvocationIndex: subgroups then never depend on how a driver folds 2D groups
//   (lavapipe miscounts subgroups of 2D groups narrower than a subgroup).
// Bindings: 0 input, RGBA float pixels, row-major, from image row input_row0 on (a window, where
//             the device's maxStorageBufferRange is smaller than the image: lavapipe's 128 MiB);
//           1 output, one float per tile: the tile's average luminance.
// Push constants: width, height, tiles_x; tile_row0, the tile row of workgroup row 0 (large
//   images are reduced in bands of tile rows, one dispatch each); input_row0.
// A workgroup reduces one tile of (kGroupX * FETCH_X) x (kGroupY * FETCH_Y) pixels.

#ifndef FETCH_X
#define FETCH_X 1
#endif
#ifndef FETCH_Y
#define FETCH_Y 1
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint kGroupX = 16;
layout(constant_id = 4) const uint kGroupY = 16;

layout(std430, binding = 0) readonly buffer Input { vec4 pixels[]; };
layout(std430, binding = 1) writeonly buffer Output { float tiles[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
  uint tiles_x;
  uint tile_row0;
  uint input_row0;
};

const uint kThreads = gl_WorkGroupSize.x;  // = kGroupX * kGroupY
const uint kFetches = FETCH_X * FETCH_Y;
const vec4 kLuminance = vec4(0.2125, 0.7154, 0.0721, 0.0);

const uvec2 kTile = uvec2(kGroupX * FETCH_X, kGroupY * FETCH_Y);

#ifdef TILES_PER_GROUP
// A workgroup reduces TILES_PER_GROUP tiles of its tile row, one after another: tile x is
// gl_WorkGroupID.x + k * gl_NumWorkGroups.x for k < TILES_PER_GROUP (the main loop sets it).
uint tile_x;
uvec2 Tile() { return uvec2(tile_x, gl_WorkGroupID.y + tile_row0); }
#else
uvec2 Tile() { return uvec2(gl_WorkGroupID.x, gl_WorkGroupID.y + tile_row0); }
#endif
uvec2 TileOrigin() { return Tile() * kTile; }
uvec2 LocalPosition() { return uvec2(gl_LocalInvocationIndex % kGroupX, gl_LocalInvocationIndex / kGroupX); }

// Every read is bounded: 1080 rows are not a multiple of most tile heights, and the studies'
// kernels read past the image there.
float Luminance(uint x, uint y) {
  return (x < width && y < height) ? dot(pixels[(y - input_row0) * width + x], kLuminance) : 0.0;
}

// Sum of this invocation's fetches number [first, last) in row-major order of its block.
float FetchSum(uint first, uint last) {
  uvec2 origin = TileOrigin() + LocalPosition() * uvec2(FETCH_X, FETCH_Y);
  float sum = 0.0;
  [[unroll]] for (uint k = first; k < last; ++k) sum += Luminance(origin.x + k % FETCH_X, origin.y + k / FETCH_X);
  return sum;
}

// The tile's pixel count: edge tiles are cut by the image border, and their average is over
// the pixels that exist.
float TilePixels() {
  uvec2 origin = TileOrigin();
  uvec2 extent = min(kTile, uvec2(width, height) - origin);
  return float(extent.x * extent.y);
}

void WriteTile(float sum) {
  float average = sum / TilePixels();
#ifdef INJECT_ERROR
  average *= 1.0001;
#endif
#ifdef SLOWDOWN
  // x -> x * 1 + 0 keeps the value; the compiler cannot see that through the push constant.
  float one = float(width != 0u), zero = float(width == 0u);
  for (uint k = 0; k < SLOWDOWN; ++k) average = average * one + zero;
#endif
  tiles[Tile().y * tiles_x + Tile().x] = average;
}
