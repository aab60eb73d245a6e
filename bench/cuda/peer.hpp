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
std::string Describe();

// The luminance sum of an RGBA float image by cub::DeviceReduce::TransformReduce, the image
// copied `copies` times in device memory so that successive runs read different memory.
class LuminanceSum {
 public:
  // `rgba` holds `floats` floats, 4 per pixel.
  LuminanceSum(const float* rgba, size_t floats, uint32_t copies);
  ~LuminanceSum();
  // One reduction of copy 0, its result read back (the output is poisoned first).
  double Run();
  // Seconds, by CUDA events, of `count` back-to-back reductions cycling through the copies.
  double Time(uint32_t count);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace csbench::cuda_peer
