#version 450
// A 3x3 binomial blur ([1 2 1] / 4 along each axis, edges clamped) of an RGBA float image, one
// output pixel per invocation: the article's example of a neighborhood filter whose loads a
// workgroup can share.
//
// Macros:
//   SHARED_TILE  the workgroup first loads its tile plus a one-pixel border into shared memory
//                ((X + 2) x (Y + 2) pixels, each read from device memory once), then filters from
//                there; otherwise every invocation reads its nine pixels from device memory
//                (each pixel is read by nine invocations, caches permitting).
// Fault injection, for the tests (never in the variant table):
//   INJECT_ERROR  scales every output by 1.0001, which the reference check must catch.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 input, RGBA float pixels, row-major; 1 output, same layout.
// Push constants: width, height.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, binding = 0) readonly buffer Input { vec4 pixels[]; };
layout(std430, binding = 1) writeonly buffer Output { vec4 result[]; };
layout(push_constant) uniform Parameters {
  uint width;
  uint height;
};

const float kWeights[3] = float[3](0.25, 0.5, 0.25);

// Clamp to the edge, as the reference does: every load is inside the image.
vec4 Load(ivec2 p) {
  p = clamp(p, ivec2(0), ivec2(width, height) - 1);
  return pixels[uint(p.y) * width + uint(p.x)];
}

#ifdef SHARED_TILE
const uint kTileX = gl_WorkGroupSize.x + 2;
const uint kTileY = gl_WorkGroupSize.y + 2;
const uint kThreads = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
shared vec4 tile[kTileX * kTileY];
#endif

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 sum = vec4(0.0);
#ifdef SHARED_TILE
  // The tile starts one pixel up and left of the group's first output; the loop walks it in
  // row-major order so that consecutive invocations load consecutive pixels.
  const ivec2 origin = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy) - 1;
  for (uint i = gl_LocalInvocationIndex; i < kTileX * kTileY; i += kThreads) {
    tile[i] = Load(origin + ivec2(i % kTileX, i / kTileX));
  }
  // Every load above must land before any invocation reads a neighbour's pixel; invocations past
  // the image edge load too and reach this barrier, and only then leave.
  barrier();
  if (p.x >= int(width) || p.y >= int(height)) return;
  const uvec2 l = gl_LocalInvocationID.xy + 1;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      sum += (kWeights[dx + 1] * kWeights[dy + 1]) * tile[(l.y + dy) * kTileX + l.x + dx];
    }
  }
#else
  if (p.x >= int(width) || p.y >= int(height)) return;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) sum += (kWeights[dx + 1] * kWeights[dy + 1]) * Load(p + ivec2(dx, dy));
  }
#endif
#ifdef INJECT_ERROR
  sum *= 1.0001;
#endif
  result[uint(p.y) * width + uint(p.x)] = sum;
}
