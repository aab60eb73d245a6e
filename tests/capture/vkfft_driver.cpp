// A small program of VkFFT (an FFT library that generates its kernels and compiles them with
// glslang when a plan is made), for the capture test: the first Vulkan device with a compute queue,
// two single-precision complex-to-complex forward plans (1-D of 4096 points in a batch of 64, and
// 2-D of 256 x 256), each checked once against a radix-2 FFT on the host, then timed.
//
//   vkfft_driver [--launches=N] [--submits=R] [--batch=B]
//
// Timing: R submits, each of one command buffer of N forward transforms (VkFFTAppend), between
// two timestamps (the transforms are out of place: each reads the same input). For each
// plan it prints one line
//   time <plan>: <us> us per transform (timestamps, median of R submits of N), <us> us (host, submit+wait)
// and exits 0; a result off the reference exits 1, a Vulkan or VkFFT error exits 10.
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// VkFFT 1.2 (Debian 12) fills glslang's resource limits by position, in the order of a glslang
// older than Debian's glslang 12, which added nine EXT mesh limits before the last count: as C++
// that list does not compile. For those locals the driver gives VkFFT a type of its own that
// takes the list as VkFFT wrote it, and hands glslang a full glslang_resource_t: VkFFT's values
// where glslang has the same fields, glslang's own defaults for the nine. VkFFT 1.3 (Debian 13,
// its headers under vkFFT/) sets the fields by name and needs nothing.
#include <glslang/Include/glslang_c_interface.h>
#if !__has_include(<vkFFT/vkFFT_Structs/vkFFT_Structs.h>)
#define CSBENCH_VKFFT_POSITIONAL_LIMITS 1
#include <cstddef>
namespace vkfft_limits {
constexpr int kCounts = 93;  // VkFFT 1.2's counts, max_lights to max_dual_source_draw_buffers_ext
static_assert(offsetof(glslang_resource_t, max_mesh_output_vertices_ext) == (kCounts - 1) * sizeof(int));
struct Positional {
  int counts[kCounts];
  glslang_limits_t limits;
  mutable glslang_resource_t full;
  const glslang_resource_t* operator&() const {
    std::memset(&full, 0, sizeof full);
    std::memcpy(&full, counts, (kCounts - 1) * sizeof(int));
    full.max_mesh_output_vertices_ext = 256;
    full.max_mesh_output_primitives_ext = 256;
    full.max_mesh_work_group_size_x_ext = 128;
    full.max_mesh_work_group_size_y_ext = 128;
    full.max_mesh_work_group_size_z_ext = 128;
    full.max_task_work_group_size_x_ext = 128;
    full.max_task_work_group_size_y_ext = 128;
    full.max_task_work_group_size_z_ext = 128;
    full.max_mesh_view_count_ext = 4;
    full.max_dual_source_draw_buffers_ext = counts[kCounts - 1];
    full.limits = limits;
    return &full;
  }
};
}  // namespace vkfft_limits
#define glslang_resource_t vkfft_limits::Positional
#endif
#define VKFFT_BACKEND 0
#include <vkFFT.h>
#ifdef CSBENCH_VKFFT_POSITIONAL_LIMITS
#undef glslang_resource_t
#endif

#include "vulkan_setup.hpp"

namespace {

using capture_program::Buffer;
using capture_program::Check;

void CheckFft(VkFFTResult result, const char* what) {
  if (result != VKFFT_SUCCESS) {
    std::fprintf(stderr, "vkfft_driver: %s failed: VkFFT error %d\n", what, static_cast<int>(result));
    std::exit(10);
  }
}

// The shared set-up, with a fence for each submit and two timestamps where the queue has them.
struct Gpu : capture_program::Gpu {
  VkFence fence = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  double tick_ns = 0;  // 0: the queue has no timestamps
};

Gpu MakeGpu() {
  Gpu gpu{capture_program::MakeGpu("vkfft_driver")};
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(gpu.physical, &props);
  std::printf("device: %s\n", props.deviceName);
  if (gpu.timestamp_bits != 0) gpu.tick_ns = static_cast<double>(props.limits.timestampPeriod);
  VkFenceCreateInfo fence{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  Check(vkCreateFence(gpu.device, &fence, nullptr, &gpu.fence), "vkCreateFence");
  if (gpu.tick_ns != 0) {
    VkQueryPoolCreateInfo queries{.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                  .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                  .queryCount = 2};
    Check(vkCreateQueryPool(gpu.device, &queries, nullptr, &gpu.queries), "vkCreateQueryPool");
  }
  return gpu;
}

// One command buffer, recorded by `record`, submitted and waited for; returns the host's time of
// the submit and the wait in microseconds.
template <typename Record>
double Submit(const Gpu& gpu, Record record) {
  VkCommandBufferAllocateInfo alloc{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                    .commandPool = gpu.pool,
                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                    .commandBufferCount = 1};
  VkCommandBuffer cmd;
  Check(vkAllocateCommandBuffers(gpu.device, &alloc, &cmd), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                 .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  Check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  Check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
  auto start = std::chrono::steady_clock::now();
  Check(vkQueueSubmit(gpu.queue, 1, &submit, gpu.fence), "vkQueueSubmit");
  Check(vkWaitForFences(gpu.device, 1, &gpu.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  auto end = std::chrono::steady_clock::now();
  Check(vkResetFences(gpu.device, 1, &gpu.fence), "vkResetFences");
  vkFreeCommandBuffers(gpu.device, gpu.pool, 1, &cmd);
  return std::chrono::duration<double, std::micro>(end - start).count();
}

void Barrier(VkCommandBuffer cmd, VkAccessFlags src, VkAccessFlags dst) {
  VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src, .dstAccessMask = dst};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
}

void Copy(VkCommandBuffer cmd, VkBuffer from, VkBuffer to, VkDeviceSize bytes) {
  VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = bytes};
  vkCmdCopyBuffer(cmd, from, to, 1, &region);
}

// The host's reference: an in-place radix-2 forward FFT (exponent -1, as VkFFT's forward) of n
// points spaced `stride` apart, in double precision.
void HostFft(std::complex<double>* data, size_t n, size_t stride) {
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; (j & bit) != 0; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i * stride], data[j * stride]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    double angle = -2.0 * M_PI / static_cast<double>(len);
    for (size_t start = 0; start < n; start += len) {
      for (size_t k = 0; k < len / 2; ++k) {
        std::complex<double> w = std::polar(1.0, angle * static_cast<double>(k));
        std::complex<double>& a = data[(start + k) * stride];
        std::complex<double>& b = data[(start + k + len / 2) * stride];
        std::complex<double> t = w * b;
        b = a - t;
        a = a + t;
      }
    }
  }
}

struct Plan {
  std::string name;
  uint64_t dims;
  uint64_t size[2];
  uint64_t batch;
};

// Makes the plan, checks one forward transform against the host, and times it. Returns false when
// the result is off the reference.
bool RunPlan(Gpu& gpu, const Plan& plan, uint32_t launches, uint32_t submits) {
  uint64_t points = plan.size[0] * (plan.dims > 1 ? plan.size[1] : 1) * plan.batch;
  uint64_t bytes = points * 2 * sizeof(float);
  // Out of place, through three buffers (VkFFT's formatted input and output, and its own buffer
  // between the two passes of a 2-D transform): no dispatch reads and writes one buffer through
  // two bindings, which a capture cannot replay (docs/capture.md).
  const VkBufferUsageFlags copies = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  const VkBufferUsageFlags storage = copies | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer input = capture_program::MakeBuffer(gpu, bytes, storage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer work = capture_program::MakeBuffer(gpu, bytes, storage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer output = capture_program::MakeBuffer(gpu, bytes, storage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  Buffer staging = capture_program::MakeBuffer(
      gpu, bytes, copies, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);

  VkFFTConfiguration config = {};
  config.FFTdim = plan.dims;
  config.size[0] = plan.size[0];
  config.size[1] = plan.dims > 1 ? plan.size[1] : 1;
  config.size[2] = 1;
  config.numberBatches = plan.batch;
  config.physicalDevice = &gpu.physical;
  config.device = &gpu.device;
  config.queue = &gpu.queue;
  config.commandPool = &gpu.pool;
  config.fence = &gpu.fence;
  config.buffer = &work.buffer;
  config.bufferSize = &bytes;
  config.isInputFormatted = 1;
  config.inputBuffer = &input.buffer;
  config.inputBufferSize = &bytes;
  config.isOutputFormatted = 1;
  config.outputBuffer = &output.buffer;
  config.outputBufferSize = &bytes;
  VkFFTApplication app = {};
  CheckFft(initializeVkFFT(&app, config), "initializeVkFFT");

  // Input: a reproducible pattern in [-1, 1).
  std::vector<std::complex<double>> host(points);
  auto* floats = static_cast<float*>(staging.data);
  uint32_t state = 12345;
  for (uint64_t i = 0; i < points; ++i) {
    float parts[2];
    for (float& part : parts) {
      state = state * 1664525u + 1013904223u;
      part = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
    }
    floats[2 * i] = parts[0];
    floats[2 * i + 1] = parts[1];
    host[i] = {parts[0], parts[1]};
  }
  Submit(gpu, [&](VkCommandBuffer cmd) { Copy(cmd, staging.buffer, input.buffer, bytes); });

  VkFFTLaunchParams launch = {};
  Submit(gpu, [&](VkCommandBuffer cmd) {
    Barrier(cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    launch.commandBuffer = &cmd;
    CheckFft(VkFFTAppend(&app, -1, &launch), "VkFFTAppend");
    Barrier(cmd, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    Copy(cmd, output.buffer, staging.buffer, bytes);
    Barrier(cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT);
  });

  // The reference: each batch element's rows, then (2-D) its columns.
  uint64_t n0 = plan.size[0], n1 = plan.dims > 1 ? plan.size[1] : 1;
  for (uint64_t b = 0; b < plan.batch; ++b) {
    std::complex<double>* element = host.data() + b * n0 * n1;
    for (uint64_t row = 0; row < n1; ++row) HostFft(element + row * n0, n0, 1);
    if (n1 > 1)
      for (uint64_t col = 0; col < n0; ++col) HostFft(element + col, n1, n0);
  }
  double worst = 0, largest = 0;
  for (uint64_t i = 0; i < points; ++i) {
    std::complex<double> got(floats[2 * i], floats[2 * i + 1]);
    worst = std::max(worst, std::abs(got - host[i]));
    largest = std::max(largest, std::abs(host[i]));
  }
  double error = worst / largest;
  bool ok = error < 1e-5;
  std::printf("check %s: %s (largest error %.2e of the largest value)\n", plan.name.c_str(), ok ? "ok" : "FAILED",
              error);

  // The timing: N forward transforms between two timestamps.
  std::vector<double> device_us, host_us;
  for (uint32_t s = 0; s < submits; ++s) {
    host_us.push_back(Submit(gpu, [&](VkCommandBuffer cmd) {
      if (gpu.tick_ns != 0) {
        vkCmdResetQueryPool(cmd, gpu.queries, 0, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, gpu.queries, 0);
      }
      Barrier(cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      launch.commandBuffer = &cmd;
      for (uint32_t l = 0; l < launches; ++l) CheckFft(VkFFTAppend(&app, -1, &launch), "VkFFTAppend");
      if (gpu.tick_ns != 0) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, gpu.queries, 1);
    }) / launches);
    if (gpu.tick_ns != 0) {
      uint64_t stamps[2];
      Check(vkGetQueryPoolResults(gpu.device, gpu.queries, 0, 2, sizeof stamps, stamps, sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            "vkGetQueryPoolResults");
      device_us.push_back(static_cast<double>(stamps[1] - stamps[0]) * gpu.tick_ns / 1000.0 / launches);
    }
  }
  auto median = [](std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
  };
  if (gpu.tick_ns != 0)
    std::printf("time %s: %.3f us per transform (timestamps, median of %u submits of %u), "
                "%.3f us (host, submit+wait)\n",
                plan.name.c_str(), median(device_us), submits, launches, median(host_us));
  else
    std::printf("time %s: no timestamps on this queue, %.3f us per transform "
                "(host, submit+wait, median of %u submits of %u)\n",
                plan.name.c_str(), median(host_us), submits, launches);

  deleteVkFFT(&app);
  for (Buffer* buffer : {&input, &work, &output, &staging}) capture_program::FreeBuffer(gpu, *buffer);
  return ok;
}

uint32_t Flag(const char* arg, const char* name, uint32_t fallback) {
  size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0) return fallback;
  char* end = nullptr;
  unsigned long value = std::strtoul(arg + length, &end, 10);
  if (*end != '\0' || value == 0 || value > 100000) {
    std::fprintf(stderr, "vkfft_driver: '%s' is not a count\n", arg);
    std::exit(2);
  }
  return static_cast<uint32_t>(value);
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t launches = 4, submits = 5, batch = 64;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strncmp(arg, "--launches=", 11) == 0) launches = Flag(arg, "--launches=", launches);
    else if (std::strncmp(arg, "--submits=", 10) == 0) submits = Flag(arg, "--submits=", submits);
    else if (std::strncmp(arg, "--batch=", 8) == 0) batch = Flag(arg, "--batch=", batch);
    else {
      std::fprintf(stderr, "usage: vkfft_driver [--launches=N] [--submits=R] [--batch=B]\n");
      return 2;
    }
  }
  std::printf("VkFFT %d\n", VkFFTGetVersion());
  Gpu gpu = MakeGpu();
  bool ok = true;
  ok = RunPlan(gpu, {"c2c_fp32_1d_4096_batch" + std::to_string(batch), 1, {4096, 1}, batch}, launches, submits) && ok;
  ok = RunPlan(gpu, {"c2c_fp32_2d_256x256", 2, {256, 256}, 1}, launches, submits) && ok;
  if (gpu.queries != VK_NULL_HANDLE) vkDestroyQueryPool(gpu.device, gpu.queries, nullptr);
  vkDestroyFence(gpu.device, gpu.fence, nullptr);
  capture_program::DestroyGpu(gpu);
  return ok ? 0 : 1;
}
