// reduction/cub_peer: the luminance sum of the reduction family's image by CUB, the library a
// CUDA programmer would reach for. Same input (RGBA float4, 16 bytes a pixel), same weights.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/cuda/peer.hpp"

namespace csbench::cuda_peer {
namespace {

void Check(cudaError_t result, const char* call, int line) {
  if (result != cudaSuccess) {
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(result) + " (cub_peer.cu:" +
                             std::to_string(line) + ")");
  }
}
#define CSBENCH_CUDA(call) Check((call), #call, __LINE__)

struct Luminance {
  __host__ __device__ float operator()(const float4& p) const {
    return 0.2125f * p.x + 0.7154f * p.y + 0.0721f * p.z;
  }
};

struct Plus {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

}  // namespace

bool DeviceAvailable(std::string& why) {
  int count = 0;
  cudaError_t result = cudaGetDeviceCount(&count);
  if (result != cudaSuccess || count == 0) {
    why = result != cudaSuccess ? cudaGetErrorString(result) : "no CUDA device";
    return false;
  }
  return true;
}

std::string ToolkitAndDevice() {
  cudaDeviceProp props{};
  int runtime = 0;
  cudaGetDeviceProperties(&props, 0);
  cudaRuntimeGetVersion(&runtime);
  return std::string(props.name) + ", CUDA runtime " + std::to_string(runtime) + ", CUB " +
         std::to_string(CUB_VERSION);
}

struct LuminanceSum::State {
  float4* images = nullptr;
  size_t pixels = 0;
  uint32_t copies = 1;
  float* sum = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaStream_t stream = nullptr;
  // The timed batch, captured once as a graph: launched kernel by kernel, a small reduction
  // (two kernels of a few microseconds each) measures how fast the host enqueues launches,
  // which moves with the host's load, not the GPU. The Vulkan variants submit a recorded
  // command buffer; a graph is CUDA's equivalent.
  cudaGraphExec_t batch = nullptr;
  uint32_t batch_count = 0;

  void Launch(uint32_t copy) {
    CSBENCH_CUDA(cub::DeviceReduce::TransformReduce(temp, temp_bytes, images + size_t{copy % copies} * pixels, sum,
                                                    pixels, Plus{}, Luminance{}, 0.0f, stream));
  }
  void Capture(uint32_t count) {
    if (batch != nullptr && batch_count == count) return;
    if (batch != nullptr) CSBENCH_CUDA(cudaGraphExecDestroy(batch));
    batch = nullptr;
    cudaGraph_t graph = nullptr;
    CSBENCH_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (uint32_t i = 0; i < count; ++i) Launch(i);
    CSBENCH_CUDA(cudaStreamEndCapture(stream, &graph));
    cudaError_t made = cudaGraphInstantiate(&batch, graph, 0);
    cudaGraphDestroy(graph);
    CSBENCH_CUDA(made);
    batch_count = count;
  }
  ~State() {
    if (batch) cudaGraphExecDestroy(batch);
    cudaFree(images);
    cudaFree(sum);
    cudaFree(temp);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }
};

LuminanceSum::LuminanceSum(const float* rgba, size_t floats, uint32_t copies) : s_(std::make_unique<State>()) {
  s_->pixels = floats / 4;
  s_->copies = copies;
  CSBENCH_CUDA(cudaMalloc(&s_->images, s_->pixels * sizeof(float4) * copies));
  for (uint32_t i = 0; i < copies; ++i) {
    CSBENCH_CUDA(cudaMemcpy(s_->images + size_t{i} * s_->pixels, rgba, s_->pixels * sizeof(float4),
                            cudaMemcpyHostToDevice));
  }
  CSBENCH_CUDA(cudaMalloc(&s_->sum, sizeof(float)));
  CSBENCH_CUDA(cub::DeviceReduce::TransformReduce(nullptr, s_->temp_bytes, s_->images, s_->sum, s_->pixels, Plus{},
                                                  Luminance{}, 0.0f));
  CSBENCH_CUDA(cudaMalloc(&s_->temp, s_->temp_bytes));
  CSBENCH_CUDA(cudaEventCreate(&s_->start));
  CSBENCH_CUDA(cudaEventCreate(&s_->stop));
  CSBENCH_CUDA(cudaStreamCreateWithFlags(&s_->stream, cudaStreamNonBlocking));
}

LuminanceSum::~LuminanceSum() = default;

double LuminanceSum::Run() {
  // NaN: an unwritten result cannot pass
  CSBENCH_CUDA(cudaMemsetAsync(s_->sum, 0xff, sizeof(float), s_->stream));
  s_->Launch(0);
  CSBENCH_CUDA(cudaGetLastError());
  float result = 0;
  CSBENCH_CUDA(cudaMemcpyAsync(&result, s_->sum, sizeof(float), cudaMemcpyDeviceToHost, s_->stream));
  CSBENCH_CUDA(cudaStreamSynchronize(s_->stream));
  return result;
}

double LuminanceSum::Time(uint32_t count) {
  s_->Capture(count);
  CSBENCH_CUDA(cudaEventRecord(s_->start, s_->stream));
  CSBENCH_CUDA(cudaGraphLaunch(s_->batch, s_->stream));
  CSBENCH_CUDA(cudaEventRecord(s_->stop, s_->stream));
  CSBENCH_CUDA(cudaEventSynchronize(s_->stop));
  CSBENCH_CUDA(cudaGetLastError());
  float ms = 0;
  CSBENCH_CUDA(cudaEventElapsedTime(&ms, s_->start, s_->stop));
  return ms * 1e-3;
}

}  // namespace csbench::cuda_peer
