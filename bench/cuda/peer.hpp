// The CUDA peers, behind a plain C++ interface so that only bench/cuda/*.cu sees CUDA headers.
// C++17, as nvcc compiles it. Built when CMake finds a CUDA toolkit (CSBENCH_WITH_CUDA); results are checked against the same
// CPU references as the Vulkan variants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace csbench::cuda_peer {

// True when a CUDA device can be used; otherwise `why` says why not.
bool DeviceAvailable(std::string& why);

// "NVIDIA H200, CUDA runtime 13000, CUB 300000": for the JSON context.
std::string ToolkitAndDevice();

// The luminance sum of an RGBA float image by cub::DeviceReduce::TransformReduce, the image
// copied `copies` times in device memory so that successive runs read different memory.
class LuminanceSum {
 public:
  // `rgba` holds `floats` floats, 4 per pixel.
  LuminanceSum(const float* rgba, size_t floats, uint32_t copies);
  ~LuminanceSum();
  // One reduction of copy 0, its result read back (the output is poisoned first).
  double Run();
  // Seconds, by CUDA events, of `count` back-to-back reductions cycling through the copies,
  // launched as one CUDA graph (captured on the first call of each count).
  double Time(uint32_t count);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The Gray-Scott model's constants, passed from kernels/grayscott/reference.hpp (their only
// definition; that header is C++20 and nvcc compiles C++17).
struct GrayScottModel {
  float feed, kill, diffusion_u, diffusion_v, time_step, corner_weight, edge_weight;
};

// The padded plane layout of kernels/grayscott/reference.hpp: border cells are stored, so the
// step needs no bounds checks.
struct GrayScottLayout {
  uint32_t width, height, stride, lead;
  uint64_t plane;  // floats per plane
};

// The CUDA Gray-Scott kernels.
enum class GrayScottKernel {
  // A straightforward step: one thread per cell, 32x8 blocks, the 3x3 neighbours read from global
  // memory (through L1/L2), one launch a step.
  kStep,
  // The twin of the Vulkan variant fused6_shuffle12 (kernels/grayscott/fused_shuffle.comp): 32x8
  // blocks, each thread two adjacent columns x 12 rows in registers, a 64x96 tile advanced up to 6
  // steps a launch (a run of N steps is ceil(N / 6) launches, the last with the rest), the
  // horizontal neighbours by warp shuffles and the strips' end rows through shared memory.
  kFused6Shuffle12,
};

// The shape compiled into GrayScottKernel::kFused6Shuffle12: the Vulkan variant table's row of
// fused6_shuffle12 (bench/grayscott.cpp), which the peer's registration compares it with.
struct FusedShape {
  uint32_t block_x, block_y;         // threads a block (x: one warp)
  uint32_t cell_columns, cell_rows;  // cells a thread
  uint32_t steps;                    // the most steps a launch advances (the ring's width)
};
inline constexpr FusedShape kFusedShape{32, 8, 2, 12, 6};

// A Gray-Scott simulation on the CUDA device: U and V ping-ponged between two pairs of planes by
// one of the kernels, from the given initial state.
class GrayScott {
 public:
  GrayScott(const GrayScottModel& model, const GrayScottLayout& layout, const float* u, const float* v,
            GrayScottKernel kernel = GrayScottKernel::kStep);
  ~GrayScott();
  // Restores the initial state (not timed). `poison`: the other state's domain cells become NaN,
  // so that a cell a launch does not write cannot pass a check.
  void Reset(bool poison = false);
  // Seconds, by CUDA events, of `steps` steps from the current state.
  double Run(uint32_t steps);
  // The current U and V planes (layout.plane floats each).
  void Download(float* u, float* v) const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace csbench::cuda_peer
