#version 450
// Radix sort, step 2 of a digit: one workgroup replaces counts[0 .. 256 * blocks) by its
// exclusive prefix sum, in place. Counts are digit-major, so counts[digit * blocks + g] becomes
// the number of elements with a smaller digit, plus those with the same digit in blocks before g:
// where block g's first element of that digit goes.
// Each invocation adds a contiguous run of the counts, the first invocation scans the runs' sums
// in order, and each invocation then writes its run's prefix sums starting from its run's offset.
//
// Specialization constants: 0 the workgroup's width, 1 its height (1).
// Bindings: 2 counts uint[256 * blocks], read and written.
// Push constants: n (the elements; blocks = ceil(n / 4096)).
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 2) buffer Counts { uint counts[]; };
layout(push_constant) uniform Parameters {
  uint n;
};

const uint kBlock = 4096;
const uint kInvocations = gl_WorkGroupSize.x;

shared uint run_sums[kInvocations];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const uint total = 256 * ((n + kBlock - 1) / kBlock);
  const uint run = (total + kInvocations - 1) / kInvocations;
  const uint first = min(lane * run, total);
  const uint last = min(first + run, total);
  uint sum = 0;
  for (uint k = first; k < last; ++k) sum += counts[k];
  run_sums[lane] = sum;
  barrier();
  if (lane == 0) {
    uint offset = 0;
    for (uint l = 0; l < kInvocations; ++l) {
      const uint s = run_sums[l];
      run_sums[l] = offset;
      offset += s;
    }
  }
  barrier();
  uint offset = run_sums[lane];
  for (uint k = first; k < last; ++k) {
    const uint c = counts[k];
    counts[k] = offset;
    offset += c;
  }
}
