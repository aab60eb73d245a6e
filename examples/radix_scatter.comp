#version 450
// Radix sort, step 3 of a digit: a stable scatter of the elements (key, payload) by the digit
// (key >> shift) & 255 from src to dst.
//
// Stability is what makes LSD radix sort right: elements with equal digits must keep the order
// the earlier digits gave them. Atomic counters hand out places in whatever order invocations
// arrive, so they are not used for places. Instead a block is taken in rounds of X consecutive
// elements, invocation l holding the round's l-th. Each invocation sets bit l of its digit's
// mask in shared memory (one bit per invocation, 256 masks); its rank within the round is the
// number of bits of its digit's mask below l, so equal digits keep their order within the round.
// Its place is then its digit's base plus that rank, and after the round each digit's base moves
// on by the bits its mask holds. Rounds go in order, and each block's bases start where the scan
// put them, after all earlier blocks' elements of that digit.
//
// Macros:
//   ONE_GROUP  one workgroup sorts by the digit on its own: it counts the digits of all n
//              elements in shared memory, scans the 256 counts into its bases, and takes every
//              element in its rounds; counts is left alone. Otherwise workgroup g takes its
//              block of 4096 elements, with bases from counts, the scan of radix_histogram.comp's
//              counts.
// Specialization constants: 0 the workgroup's width (a divisor of 4096; the masks take
//   256 * ceil(X / 32) words of shared memory, 8 KiB at 256), 1 its height (1).
// Bindings: 0 src uvec2[n], 1 dst uvec2[n] (traded after every scatter, so declared neither
//   readonly nor writeonly), 2 counts uint[256 * blocks] (read; not used with ONE_GROUP).
// Push constants: n, shift.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) buffer Src { uvec2 src[]; };
layout(std430, set = 0, binding = 1) buffer Dst { uvec2 dst[]; };
// Declared with ONE_GROUP too, and unused there: some pass of every variant must declare each of
// the family's buffers.
layout(std430, set = 0, binding = 2) buffer Counts { uint counts[]; };
layout(push_constant) uniform Parameters {
  uint n;
  uint shift;
};

const uint kBlock = 4096;
const uint kInvocations = gl_WorkGroupSize.x;
const uint kWords = (kInvocations + 31) / 32;

shared uint masks[256 * kWords];
shared uint bases[256];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const uint word = lane / 32;
  const uint bit = 1u << (lane % 32);
#ifdef ONE_GROUP
  const uint start = 0;
  const uint end = n;
  for (uint d = lane; d < 256; d += kInvocations) bases[d] = 0;
  barrier();
  for (uint i = lane; i < n; i += kInvocations) atomicAdd(bases[(src[i].x >> shift) & 255u], 1u);
  barrier();
  if (lane == 0) {
    uint offset = 0;
    for (uint d = 0; d < 256; ++d) {
      const uint count = bases[d];
      bases[d] = offset;
      offset += count;
    }
  }
#else
  const uint block = gl_WorkGroupID.x;
  const uint blocks = (n + kBlock - 1) / kBlock;
  const uint start = block * kBlock;
  const uint end = min(start + kBlock, n);
  for (uint d = lane; d < 256; d += kInvocations) bases[d] = counts[d * blocks + block];
#endif
  for (uint w = lane; w < 256 * kWords; w += kInvocations) masks[w] = 0;
  // The bases and the cleared masks are in place before the first round reads them.
  barrier();
  // first is the same in every invocation, so every barrier is reached by the whole group.
  for (uint first = start; first < end; first += kInvocations) {
    const uint i = first + lane;
    const bool live = i < end;
    uvec2 element = uvec2(0);
    uint digit = 0;
    if (live) {
      element = src[i];
      digit = (element.x >> shift) & 255u;
      atomicOr(masks[digit * kWords + word], bit);
    }
    // Every element of the round has its bit set before any rank is counted.
    barrier();
    if (live) {
      uint rank = bitCount(masks[digit * kWords + word] & (bit - 1u));
      for (uint w = 0; w < word; ++w) rank += bitCount(masks[digit * kWords + w]);
      dst[bases[digit] + rank] = element;
    }
    // Every rank is counted before the bases move and the masks are cleared.
    barrier();
    for (uint d = lane; d < 256; d += kInvocations) {
      uint count = 0;
      for (uint w = 0; w < kWords; ++w) {
        count += bitCount(masks[d * kWords + w]);
        masks[d * kWords + w] = 0;
      }
      bases[d] += count;
    }
    // The next round's bits go into cleared masks, and its ranks start from the moved bases.
    barrier();
  }
}
