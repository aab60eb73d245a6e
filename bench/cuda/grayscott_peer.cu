// run_simulation/cuda_peer: the Gray-Scott step as a CUDA programmer would first write it, with
// the same model, layout, boundary and arithmetic order as the plain-loop reference.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "bench/cuda/peer.hpp"

namespace csbench::cuda_peer {
namespace {

void Check(cudaError_t result, const char* call, int line) {
  if (result != cudaSuccess) {
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(result) +
                             " (grayscott_peer.cu:" + std::to_string(line) + ")");
  }
}
#define CSBENCH_CUDA(call) Check((call), #call, __LINE__)

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void Step(GrayScottModel m, GrayScottLayout l, const float* __restrict__ u_in,
                     const float* __restrict__ v_in, float* __restrict__ u_out, float* __restrict__ v_out) {
  const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= l.width || y >= l.height) return;
  const size_t centre = l.lead + size_t(y + 1) * l.stride + x;
  const float u = u_in[centre];
  const float v = v_in[centre];
  const float weights[3][3] = {{m.corner_weight, m.edge_weight, m.corner_weight},
                               {m.edge_weight, 0.0f, m.edge_weight},
                               {m.corner_weight, m.edge_weight, m.corner_weight}};
  float laplacian_u = 0.0f;
  float laplacian_v = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 3; ++dy) {
#pragma unroll
    for (int dx = 0; dx < 3; ++dx) {
      if (dy == 1 && dx == 1) continue;
      const size_t i = centre + (dy - 1) * ptrdiff_t(l.stride) + (dx - 1);
      laplacian_u += weights[dy][dx] * (u_in[i] - u);
      laplacian_v += weights[dy][dx] * (v_in[i] - v);
    }
  }
  const float uv_square = u * v * v;
  const float du = m.diffusion_u * laplacian_u - uv_square + m.feed * (1.0f - u);
  const float dv = m.diffusion_v * laplacian_v + uv_square - (m.feed + m.kill) * v;
  u_out[centre] = u + du * m.time_step;
  v_out[centre] = v + dv * m.time_step;
}

}  // namespace

struct GrayScott::State {
  GrayScottModel model;
  GrayScottLayout layout;
  float* initial = nullptr;  // U plane, then V plane
  float* planes[2] = {};     // two states, each U then V
  int current = 0;
  cudaEvent_t start = nullptr, stop = nullptr;

  size_t StateBytes() const { return 2 * layout.plane * sizeof(float); }
  ~State() {
    cudaFree(initial);
    cudaFree(planes[0]);
    cudaFree(planes[1]);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
};

GrayScott::GrayScott(const GrayScottModel& model, const GrayScottLayout& layout, const float* u, const float* v)
    : s_(std::make_unique<State>()) {
  s_->model = model;
  s_->layout = layout;
  const size_t plane_bytes = layout.plane * sizeof(float);
  CSBENCH_CUDA(cudaMalloc(&s_->initial, s_->StateBytes()));
  CSBENCH_CUDA(cudaMalloc(&s_->planes[0], s_->StateBytes()));
  CSBENCH_CUDA(cudaMalloc(&s_->planes[1], s_->StateBytes()));
  CSBENCH_CUDA(cudaMemcpy(s_->initial, u, plane_bytes, cudaMemcpyHostToDevice));
  CSBENCH_CUDA(cudaMemcpy(s_->initial + layout.plane, v, plane_bytes, cudaMemcpyHostToDevice));
  // Both states start as the initial one: the border cells and pads of the output state must
  // already hold the border values, which the step never writes.
  CSBENCH_CUDA(cudaMemcpy(s_->planes[1], s_->initial, s_->StateBytes(), cudaMemcpyDeviceToDevice));
  CSBENCH_CUDA(cudaEventCreate(&s_->start));
  CSBENCH_CUDA(cudaEventCreate(&s_->stop));
  Reset();
}

GrayScott::~GrayScott() = default;

void GrayScott::Reset() {
  CSBENCH_CUDA(cudaMemcpy(s_->planes[0], s_->initial, s_->StateBytes(), cudaMemcpyDeviceToDevice));
  s_->current = 0;
  CSBENCH_CUDA(cudaDeviceSynchronize());
}

double GrayScott::Run(uint32_t steps) {
  const GrayScottLayout& l = s_->layout;
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((l.width + kBlockX - 1) / kBlockX, (l.height + kBlockY - 1) / kBlockY);
  CSBENCH_CUDA(cudaEventRecord(s_->start));
  for (uint32_t i = 0; i < steps; ++i) {
    float* in = s_->planes[s_->current];
    float* out = s_->planes[1 - s_->current];
    Step<<<grid, block>>>(s_->model, l, in, in + l.plane, out, out + l.plane);
    s_->current = 1 - s_->current;
  }
  CSBENCH_CUDA(cudaEventRecord(s_->stop));
  CSBENCH_CUDA(cudaEventSynchronize(s_->stop));
  CSBENCH_CUDA(cudaGetLastError());
  float ms = 0;
  CSBENCH_CUDA(cudaEventElapsedTime(&ms, s_->start, s_->stop));
  return ms * 1e-3;
}

void GrayScott::Download(float* u, float* v) const {
  const float* state = s_->planes[s_->current];
  CSBENCH_CUDA(cudaMemcpy(u, state, s_->layout.plane * sizeof(float), cudaMemcpyDeviceToHost));
  CSBENCH_CUDA(cudaMemcpy(v, state + s_->layout.plane, s_->layout.plane * sizeof(float), cudaMemcpyDeviceToHost));
}

}  // namespace csbench::cuda_peer
