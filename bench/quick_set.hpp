// The quick default set: what a run with no --benchmark_filter measures on a CPU device (lavapipe,
// SwiftShader) or with the plain_loop backend, where the whole suite takes hours. Every family is
// represented, the seed studies' own configurations first. An explicit filter selects from every
// benchmark (--benchmark_filter=all: the whole suite). Each entry is a filter as
// --benchmark_filter reads it.
#pragma once

#include <string_view>

namespace csbench {

inline constexpr std::string_view kQuickSet[] = {
    // The Gray-Scott chapter's run (2048x1024, 512 steps, an image every 32) and its plain loop.
    "^run_simulation/(global|shared_aos|shared_soa|strip4x4)/workgroup32x16/domain2048x1024/total512/image32/compute$",
    "^run_simulation/strip4x4/workgroup32x16/domain2048x1024/total512/image32/compute\\+download$",
    // Several steps per pass: the smallest fused variant.
    "^run_simulation/fused2/workgroup32x4/domain2048x1024/total512/image32/compute$",
    "^run_simulation/plain_loop/domain2048x1024/total512/image32/compute$",
    // The reduction studies at 1080p: every variant at its study workgroup (prefetch4 at the
    // three sizes the studies compare), and the plain loop.
    "^reduction/(interleaved|sequential|unrolled)/wg16x16/domain1920x1080$",
    "^reduction/(prefetch2/wg8x16|prefetch4/wg(4x16|8x32|16x64)|prefetch4_shared2x/wg16x64|prefetch16/wg16x64)/domain1920x1080$",
    "^reduction/subgroup/wg8x32/domain1920x1080$",
    "^reduction/plain_loop/domain1920x1080$",
    // The copy roofline every roofline% is measured against.
    "^roofline/(copy|read)_kernel/wg256x1/domain4096x4096$",
    // One or two contrasts per family of the occupancy and DirectCompute studies.
    "^group_size/scale_add/wg(1|64|256)x1/",
    "^vector_width/(float|vec4)/wg256x1/",
    "^bank_conflicts/(transpose_tile32x3[23]/wg32x8|stride(1|32)/wg256x1)/",
    "^atomics/(per_element|per_group|two_pass|per_group_float)/wg256x1/",
    "^append/(atomic_per_element|ballot|scan)/wg256/domain16777216/keep50$",
    "^barriers/(b1|b16|b16_uneven)/wg64x1/",
    "^neighborhood/(direct|shared_tile)/wg16x16/",
    "^neighborhood3d/(direct|shared_tile)/wg8x8x8/",
    "^packing/",
    "^occupancy/live(16|64)/wg256/",
    "^uniform_data/(uniform|per_lane)_4x4/wg64/",
    // BabelStream's five kernels at one size beyond a CPU's caches.
    "^stream/(copy|mul|add|triad|dot)/wg256x1/domain4194304x1$",
};

// What a GPU's default set (no --benchmark_filter) leaves out: the host CPU's single-core
// Gray-Scott loops, 64 steps of 8192x8192 and the chapter's 512 of 2048x1024. They measure the
// host, not the GPU, and take about 50 s a repetition on a server core, over 40% of the suite's
// timed runs on an H200; an explicit filter (all, or one naming them) runs them.
inline constexpr std::string_view kGpuDefaultLeavesOut = "^run_simulation/plain_loop/";

}  // namespace csbench
