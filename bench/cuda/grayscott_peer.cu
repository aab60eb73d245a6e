// The CUDA Gray-Scott peers, with the same model, layout, boundary and arithmetic order as the
// plain-loop reference: run_simulation/cuda_peer, the step as a CUDA programmer would first write
// it, and run_simulation/cuda_fused6_shuffle12, the twin of the Vulkan variant fused6_shuffle12
// (kernels/grayscott/fused_shuffle.comp).
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
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

// The reaction and the step of one cell from its (U, V) and their Laplacians, in the reference's
// operation order (reference.cpp's Step, common.glsl's Update).
__device__ __forceinline__ float2 Update(const GrayScottModel& m, float u, float v, float laplacian_u,
                                         float laplacian_v) {
  const float uv_square = u * v * v;
  const float du = m.diffusion_u * laplacian_u - uv_square + m.feed * (1.0f - u);
  const float dv = m.diffusion_v * laplacian_v + uv_square - (m.feed + m.kill) * v;
  return make_float2(u + du * m.time_step, v + dv * m.time_step);
}

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
  const float2 next = Update(m, u, v, laplacian_u, laplacian_v);
  u_out[centre] = next.x;
  v_out[centre] = next.y;
}

// The fused kernel. A warp is one row of the block and each thread owns two adjacent columns, so a
// block's tile is 2 x 32 columns by kStrips x kCellRows rows; lane l of warp k owns columns 2l,
// 2l + 1 and rows k kCellRows .. + kCellRows - 1, in registers from the load to the store. A
// launch advances the tile up to kSteps steps and writes all but its ring of kSteps cells, which
// the overlapping neighbour tiles write: a cell's error moves inward one cell a step, so what the
// ring lacks (the neighbours beyond the tile) never reaches the output.
constexpr int kWarp = 32;
constexpr unsigned kWholeWarp = 0xffffffffu;

// fused6_shuffle12's shape: 32x8 blocks of 12 rows a thread, a 64x96 tile, 6 steps a launch.
constexpr int kFusedSteps = kFusedShape.steps;
constexpr int kFusedCellRows = kFusedShape.cell_rows;
constexpr int kFusedStrips = kFusedShape.block_y;
static_assert(kFusedShape.block_x == kWarp && kFusedShape.cell_columns == 2,
              "the fused kernel's block row is one warp, and its threads own two columns each");

// A row of a thread's two cells holds (U, V) of its left cell in x, y and of its right cell in z, w.
// Across(row): each cell's left plus right neighbour, in the same order. The lanes at the warp's
// ends get their own value back from the shuffle; they hold the tile's edge columns, ring cells.
__device__ __forceinline__ float4 Across(float4 row) {
  const float left_u = __shfl_up_sync(kWholeWarp, row.z, 1);  // the left lane's right cell
  const float left_v = __shfl_up_sync(kWholeWarp, row.w, 1);
  const float right_u = __shfl_down_sync(kWholeWarp, row.x, 1);  // the right lane's left cell
  const float right_v = __shfl_down_sync(kWholeWarp, row.y, 1);
  return make_float4(left_u + row.z, left_v + row.w, row.x + right_u, row.y + right_v);
}

// One component of the Laplacian grouped by rows, as fused_shuffle.comp groups it: wc (h_above +
// h_below) + we ((c_above + c_below) + h_mid) - 4 (wc + we) c, with h = left + right neighbour.
__device__ __forceinline__ float Laplacian(const GrayScottModel& m, float centre_weight, float top_c, float top_h,
                                           float mid_c, float mid_h, float bot_c, float bot_h) {
  return m.corner_weight * (top_h + bot_h) + m.edge_weight * ((top_c + bot_c) + mid_h) - centre_weight * mid_c;
}

// The float2 index of the pair of cells (x, y), (x + 1, y), x even: rows and the lead are
// multiples of 32 floats, so the pair is one aligned 8-byte access. In 32 bits, as in the Vulkan
// kernel (GrayScott refuses larger planes): a row's address is then one multiply-add.
__device__ __forceinline__ int PairIndex(const GrayScottLayout& l, int x, int y) {
  return (static_cast<int>(l.lead) + x) / 2 + (y + 1) * static_cast<int>(l.stride / 2);
}

// `steps` (1..kSteps) steps of every block's tile from the "in" planes into the "out" planes.
// Two blocks an SM (at most 128 registers a thread at 256 threads), as the Vulkan kernel's 117
// registers give it: one block's loads and stores then overlap the other's steps. Unbounded, nvcc
// 13 takes 158 registers, one block an SM.
template <int kSteps, int kCellRows, int kStrips>
__global__ void __launch_bounds__(kWarp* kStrips, 2)
    FusedSteps(GrayScottModel m, GrayScottLayout l, int steps, const float2* __restrict__ u_in,
               const float2* __restrict__ v_in, float2* __restrict__ u_out, float2* __restrict__ v_out) {
  static_assert(kSteps % 2 == 0, "a tile must start at an even column, so that every pair of cells is aligned");
  constexpr int kCols = 2 * kWarp;
  constexpr int kRows = kStrips * kCellRows;
  constexpr int kThreads = kWarp * kStrips;
  static_assert(kCols > 2 * kSteps && kRows > 2 * kSteps, "the tile must be wider than its two rings");
  // Each thread's first and last rows, two buffers: step s writes buffer s % 2, and a thread writes
  // it again only at step s + 2, after the barrier of step s + 1, which every thread reaches only
  // once it has read step s. One barrier a step.
  __shared__ float4 first_rows[2][kThreads];
  __shared__ float4 last_rows[2][kThreads];

  const int width = static_cast<int>(l.width);
  const int height = static_cast<int>(l.height);
  const int lane = threadIdx.x;  // blockDim.x is the warp: threadIdx.y is the warp's index
  const int strip = threadIdx.y;
  // The tile's first cell: tiles step by their output size and start kSteps cells before it.
  const int origin_x = static_cast<int>(blockIdx.x) * (kCols - 2 * kSteps) - kSteps;
  const int origin_y = static_cast<int>(blockIdx.y) * (kRows - 2 * kSteps) - kSteps;
  const int column = 2 * lane;  // of the thread's left cell, in the tile
  const int x = origin_x + column;
  const int first_row = strip * kCellRows;
  const int y0 = origin_y + first_row;

  // All loads first, independent of each other. A pair outside the domain on the left (x <= -2)
  // or right (x >= width) is two border cells, U = 1, V = 0, not loaded (its address is column 0's,
  // so that every address is valid). A pair whose right cell is the border column x = width loads
  // it, stored like any border cell. Rows clamp to the stored border rows.
  float4 rows[kCellRows];
  const bool pair_inside = x >= 0 && x < width;
  const int load_x = pair_inside ? x : 0;
#pragma unroll
  for (int r = 0; r < kCellRows; ++r) {
    const int i = PairIndex(l, load_x, min(max(y0 + r, -1), height));
    const float2 u = u_in[i];
    const float2 v = v_in[i];
    rows[r] = pair_inside ? make_float4(u.x, v.x, u.y, v.y) : make_float4(1.0f, 0.0f, 1.0f, 0.0f);
  }
  // Which cells a step updates: the others are outside the domain and keep their border value.
  const bool left_inside = pair_inside;
  const bool right_inside = x + 1 >= 0 && x + 1 < width;
  bool row_inside[kCellRows];
#pragma unroll
  for (int r = 0; r < kCellRows; ++r) row_inside[r] = y0 + r >= 0 && y0 + r < height;

  const int own = strip * kWarp + lane;
  const int above = strip > 0 ? own - kWarp : own;  // the first strip reads its own row: ring cells
  const int below = strip < kStrips - 1 ? own + kWarp : own;
  const float centre_weight = 4.0f * (m.corner_weight + m.edge_weight);

  for (int s = 0; s < steps; ++s) {
    const int b = s % 2;
    first_rows[b][own] = rows[0];
    last_rows[b][own] = rows[kCellRows - 1];
    // Every strip's end rows of this step are in the buffer before any thread reads them.
    __syncthreads();
    float4 top_c = last_rows[b][above];
    float4 top_h = Across(top_c);
    float4 mid_c = rows[0];
    float4 mid_h = Across(mid_c);
#pragma unroll
    for (int r = 0; r < kCellRows; ++r) {
      const float4 bot_c = r + 1 < kCellRows ? rows[r + 1] : first_rows[b][below];
      const float4 bot_h = Across(bot_c);
      const float2 left_next =
          Update(m, mid_c.x, mid_c.y, Laplacian(m, centre_weight, top_c.x, top_h.x, mid_c.x, mid_h.x, bot_c.x, bot_h.x),
                 Laplacian(m, centre_weight, top_c.y, top_h.y, mid_c.y, mid_h.y, bot_c.y, bot_h.y));
      const float2 right_next =
          Update(m, mid_c.z, mid_c.w, Laplacian(m, centre_weight, top_c.z, top_h.z, mid_c.z, mid_h.z, bot_c.z, bot_h.z),
                 Laplacian(m, centre_weight, top_c.w, top_h.w, mid_c.w, mid_h.w, bot_c.w, bot_h.w));
      // Both cells computed, then selected, as in fused_shuffle.comp: computed under a branch, the
      // update's bookkeeping (a branch and its reconvergence a cell and step) took 14% more time on
      // an H200.
      const float2 left = row_inside[r] && left_inside ? left_next : make_float2(mid_c.x, mid_c.y);
      const float2 right = row_inside[r] && right_inside ? right_next : make_float2(mid_c.z, mid_c.w);
      rows[r] = make_float4(left.x, left.y, right.x, right.y);
      top_c = mid_c;
      top_h = mid_h;
      mid_c = bot_c;
      mid_h = bot_h;
    }
  }

  // The output tile, where it is inside the domain (a column at least kSteps in has x >= 0). Both
  // cells of a pair are written together (one 8-byte store a plane), except where only one is
  // output: the left cell at the domain's right edge (odd width).
  const bool write_left = column >= kSteps && column < kCols - kSteps && x < width;
  const bool write_right = column + 1 >= kSteps && column + 1 < kCols - kSteps && x + 1 < width;
#pragma unroll
  for (int r = 0; r < kCellRows; ++r) {
    const int row = first_row + r;
    const int y = y0 + r;
    if (row < kSteps || row >= kRows - kSteps || y >= height) continue;
    const int i = PairIndex(l, x, y);
    if (write_left && write_right) {
      u_out[i] = make_float2(rows[r].x, rows[r].z);
      v_out[i] = make_float2(rows[r].y, rows[r].w);
    } else if (write_left) {
      u_out[i].x = rows[r].x;
      v_out[i].x = rows[r].y;
    } else if (write_right) {
      u_out[i].y = rows[r].z;
      v_out[i].y = rows[r].w;
    }
  }
}

}  // namespace

struct GrayScott::State {
  GrayScottModel model;
  GrayScottLayout layout;
  GrayScottKernel kernel;
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

  // One launch of `steps` steps (1, or up to kFusedSteps for the fused kernel) from the current
  // state into the other one.
  void Launch(uint32_t steps) {
    const GrayScottLayout& l = layout;
    float* in = planes[current];
    float* out = planes[1 - current];
    if (kernel == GrayScottKernel::kStep) {
      const dim3 grid((l.width + kBlockX - 1) / kBlockX, (l.height + kBlockY - 1) / kBlockY);
      Step<<<grid, dim3(kBlockX, kBlockY)>>>(model, l, in, in + l.plane, out, out + l.plane);
    } else {
      // Tiles step by their output cells: 64 - 2 x 6 columns, 96 - 2 x 6 rows.
      constexpr uint32_t kOutputX = 2 * kWarp - 2 * kFusedSteps;
      constexpr uint32_t kOutputY = kFusedStrips * kFusedCellRows - 2 * kFusedSteps;
      const dim3 grid((l.width + kOutputX - 1) / kOutputX, (l.height + kOutputY - 1) / kOutputY);
      // A plane is a multiple of 64 floats, so the V plane's pairs are aligned as U's are.
      auto pairs = [](float* plane) { return reinterpret_cast<float2*>(plane); };
      FusedSteps<kFusedSteps, kFusedCellRows, kFusedStrips><<<grid, dim3(kWarp, kFusedStrips)>>>(
          model, l, static_cast<int>(steps), pairs(in), pairs(in + l.plane), pairs(out), pairs(out + l.plane));
    }
    current = 1 - current;
  }
};

GrayScott::GrayScott(const GrayScottModel& model, const GrayScottLayout& layout, const float* u, const float* v,
                     GrayScottKernel kernel)
    : s_(std::make_unique<State>()) {
  if (kernel == GrayScottKernel::kFused6Shuffle12 && layout.plane > uint64_t{std::numeric_limits<int>::max()}) {
    throw std::runtime_error("the fused CUDA Gray-Scott kernel indexes planes in 32 bits: a plane of " +
                             std::to_string(layout.plane) + " floats is too large");
  }
  s_->model = model;
  s_->layout = layout;
  s_->kernel = kernel;
  const size_t plane_bytes = layout.plane * sizeof(float);
  CSBENCH_CUDA(cudaMalloc(&s_->initial, s_->StateBytes()));
  CSBENCH_CUDA(cudaMalloc(&s_->planes[0], s_->StateBytes()));
  CSBENCH_CUDA(cudaMalloc(&s_->planes[1], s_->StateBytes()));
  CSBENCH_CUDA(cudaMemcpy(s_->initial, u, plane_bytes, cudaMemcpyHostToDevice));
  CSBENCH_CUDA(cudaMemcpy(s_->initial + layout.plane, v, plane_bytes, cudaMemcpyHostToDevice));
  // Both states start as the initial one: the border cells and pads of the output state must
  // already hold the border values, which the kernels never write.
  CSBENCH_CUDA(cudaMemcpy(s_->planes[1], s_->initial, s_->StateBytes(), cudaMemcpyDeviceToDevice));
  CSBENCH_CUDA(cudaEventCreate(&s_->start));
  CSBENCH_CUDA(cudaEventCreate(&s_->stop));
  Reset();
}

GrayScott::~GrayScott() = default;

void GrayScott::Reset(bool poison) {
  const GrayScottLayout& l = s_->layout;
  CSBENCH_CUDA(cudaMemcpy(s_->planes[0], s_->initial, s_->StateBytes(), cudaMemcpyDeviceToDevice));
  if (poison) {
    // All bits set: a NaN. Rows of the domain only; the border cells and pads keep their values.
    for (int species = 0; species < 2; ++species) {
      float* row0 = s_->planes[1] + species * l.plane + l.lead + l.stride;
      CSBENCH_CUDA(cudaMemset2D(row0, l.stride * sizeof(float), 0xff, l.width * sizeof(float), l.height));
    }
  }
  s_->current = 0;
  CSBENCH_CUDA(cudaDeviceSynchronize());
}

double GrayScott::Run(uint32_t steps) {
  // One step a launch, or passes of kFusedSteps and a shorter last one, as the Vulkan family
  // splits a fused variant's run (bench/grayscott.cpp, RecordSteps).
  const uint32_t per_launch = s_->kernel == GrayScottKernel::kStep ? 1 : kFusedSteps;
  CSBENCH_CUDA(cudaEventRecord(s_->start));
  for (uint32_t done = 0; done < steps; done += per_launch) s_->Launch(std::min(per_launch, steps - done));
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
