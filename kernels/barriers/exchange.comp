#version 450
// Neighbour exchange through shared memory, ROUNDS barriers per element: each invocation loads one
// element, then ROUNDS times publishes its value, waits at a barrier and averages it with the next
// invocation's (v = 0.5 * (v + next), the last invocation's next is the group's first), and
// writes the result. Groups cover consecutive chunks of the domain in a grid-stride loop (past the
// end, values are 0). Before each barrier an invocation may do some integer work: the talk warns
// that barriers hurt "especially if work is not divided evenly among threads".
//
// Macros: ROUNDS (barriers per element), WORK (0: none; 1: even, every invocation 31 steps of an
//   integer hash per round; 2: uneven, invocation l does 2 * (l % 32) steps, 31 on average).
// Specialization constants: 0 local size x.
// Bindings: 0 input float[], 1 output float[].
// Push constants: count.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { float src[]; };
layout(std430, binding = 1) writeonly buffer Output { float dst[]; };
layout(push_constant) uniform Parameters {
  uint count;
};

// Two slots per invocation, alternating by round: a round writes one while the previous round's
// reads of the other may still be under way, so one barrier per round suffices.
shared float slots[2][gl_WorkGroupSize.x];

// The work before a barrier: `steps` steps of a linear congruential hash, folded into v exactly
// (an integer below 256 times 2^-20), so the compiler cannot drop it and the reference can match.
float Work(float v, uint lane, uint round, uint steps) {
  uint h = lane + round;
  for (uint k = 0; k < steps; ++k) h = h * 1664525u + 1013904223u;
  return v + float(h >> 24) * 9.5367431640625e-07;
}

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const uint next = (lane + 1) % gl_WorkGroupSize.x;
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  // `base` is uniform in the group, so every invocation meets every barrier.
  for (uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x; base < count; base += stride) {
    const uint i = base + lane;
    float v = i < count ? src[i] : 0.0;
    for (uint r = 0; r < ROUNDS; ++r) {
#if WORK == 1
      v = Work(v, lane, r, 31);
#elif WORK == 2
      v = Work(v, lane, r, 2 * (lane % 32));
#endif
      slots[r & 1][lane] = v;
      barrier();
      v = 0.5 * (v + slots[r & 1][next]);
    }
    if (i < count) dst[i] = v;
    barrier();  // the next chunk's first round overwrites slots this chunk's last rounds read
  }
}
