// The quick default set: what a run with no --benchmark_filter measures on a CPU device (lavapipe,
// SwiftShader) or with the plain_loop backend, where the whole suite takes hours. Every family is
// represented, the seed studies' own configurations first. An explicit filter selects from every
// benchmark (--benchmark_filter=all: the whole suite). Each entry is a filter as
// --benchmark_filter reads it.
#pragma once

#include <string_view>

namespace csbench {

inline constexpr std::string_view kQuickSet[] = {
    // Gray-Scott on the short run (1024x512, 32 steps, an image every 4): the chapter's own run
    // (2048x1024, 512 steps) takes 4-19 s a run on lavapipe, which three repetitions of its seven
    // entries made most of the quick set's time. The chapter's kernels at its workgroup, global
    // and shared_aos at each of its workgroups (the trend of the shared-memory regression), the
    // pipelined modes, a strip and the smallest fused variant, and the plain loop.
    "^run_simulation/(global|shared_aos)/workgroup(8x8|16x8|16x16|32x16|32x32)/domain1024x512/total32/image4/compute$",
    "^run_simulation/(shared_soa|strip4x4)/workgroup32x16/domain1024x512/total32/image4/compute$",
    "^run_simulation/global/workgroup32x16/domain1024x512/total32/image4/compute\\+download\\+sum$",
    "^run_simulation/strip4x4/workgroup32x16/domain1024x512/total32/image4/compute\\+download$",
    "^run_simulation/fused2/workgroup32x4/domain1024x512/total32/image4/compute$",
    "^run_simulation/plain_loop/domain1024x512/total32/image4/compute$",
    // The reduction studies at 1080p: every variant at its study workgroup (prefetch4 at the
    // three sizes the studies compare), and the plain loop; the same variants at 640x480, where
    // the 2015 follow-up expects them to differ more.
    "^reduction/(interleaved|sequential|unrolled)/wg16x16/domain(1920x1080|640x480)$",
    "^reduction/(prefetch2/wg8x16|prefetch4/wg(4x16|8x32|16x64)|prefetch4_shared2x/wg16x64|prefetch16/wg16x64)/"
    "domain(1920x1080|640x480)$",
    "^reduction/subgroup/wg8x32/domain(1920x1080|640x480)$",
    "^reduction/plain_loop/domain1920x1080$",
    // The copy roofline every roofline% is measured against.
    "^roofline/(copy|read)_kernel/wg256x1/domain4096x4096$",
    // The other ceilings at a CPU's sizes: every bound% of the run is judged against them.
    "^ceiling/(fp32_fma|fp16_fma|int32_mad|subgroup_shuffle|shared_read)/wg256x1/domain65536x1$",
    "^ceiling/dispatch_(alone|dependent)/",
    "^ceiling/(upload|download)_cached/",
    // The contrasts of the occupancy and DirectCompute studies that scripts/findings-rules.toml
    // decides; group_size's at the device's subgroup size and half of it join these on the
    // device (bench/main.cpp).
    "^group_size/scale_add/wg(1|32|64|256)x1/",
    "^vector_width/(float|vec4)/wg256x1/",
    // The bank-conflict claims do not apply to a CPU (no shared-memory banks): the cheaper of its
    // contrasts alone. atomics/two_pass, which no claim reads, took 7 s of
    // calibration and three repetitions on lavapipe (2 cores).
    "^bank_conflicts/stride(1|32)/wg256x1/",
    "^atomics/(per_element|per_group|per_subgroup|per_element_float|per_group_float)/wg256x1/",
    "^append/(atomic_per_element|ballot|scan)/wg256/domain16777216/keep50$",
    "^barriers/(b1|b16|b1_even|b16_even|b1_uneven|b16_uneven)/wg64x1/",
    "^neighborhood/(direct|shared_tile)/wg(8x8|16x16|32x32)/",
    "^neighborhood3d/(direct/wg8x8x8|shared_tile/wg(4x4x4|8x8x8))/",
    "^packing/",
    "^occupancy/live(16/wg256|64/wg(64|256|1024))/",
    "^uniform_data/(uniform_4x4|per_lane_4x4|uniform_4x3)/wg64/",
    // BabelStream's five kernels at one size beyond a CPU's caches.
    "^stream/(copy|mul|add|triad|dot)/wg256x1/domain4194304x1$",
};

// What a GPU's default set (no --benchmark_filter) leaves out: the host CPU's single-core
// Gray-Scott loops, 64 steps of 8192x8192 and the chapter's 512 of 2048x1024. They measure the
// host, not the GPU, and take about 50 s a repetition on a server core, over 40% of the suite's
// timed runs on an H200. And what only a CPU device's quick set needs: the short Gray-Scott run,
// which a GPU finishes in well under a millisecond, and group sizes below 16 (half of lavapipe's
// subgroup of 8 or 4 lanes). An explicit filter (all, or one naming them) runs them. A name
// that any of these patterns matches is left out.
inline constexpr std::string_view kGpuDefaultLeavesOut[] = {
    "^run_simulation/plain_loop/",
    // With or without a workgroup: the CUDA peer has none.
    "^run_simulation/.*domain1024x512/total32/image4/",
    "^group_size/scale_add/wg[248]x1/",
};

}  // namespace csbench
