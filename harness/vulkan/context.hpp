// The Vulkan context: instance, the chosen physical device, a logical device with one compute
// queue, and a command pool. The only place besides the other harness files that owns Vulkan
// objects; bench/ and kernels/ reach the GPU through Context, Buffer, Kernel and Commands.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <vulkan/vulkan_raii.hpp>

#include "harness/base/options.hpp"

namespace csbench {

class ClockProbe;
class Commands;
class SubmissionClock;

struct DeviceInfo {
  uint32_t index = 0;
  std::string name;
  std::string type;  // "discrete", "integrated", "virtual", "cpu", "other"
  std::string driver_name;
  std::string driver_info;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t driver_version = 0;
  uint32_t api_version = 0;
  uint32_t subgroup_size = 0;
  // The sizes a compute subgroup may take (VkPhysicalDeviceSubgroupSizeControlProperties, Vulkan
  // 1.3 or VK_EXT_subgroup_size_control); both subgroup_size where the device reports neither.
  uint32_t min_subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  bool subgroup_arithmetic = false;  // subgroupAdd and friends in compute shaders
  bool subgroup_ballot = false;      // subgroupBallot and its bit counts in compute shaders
  bool subgroup_shuffle_relative = false;  // subgroupShuffleUp/Down in compute shaders
  bool subgroup_shuffle = false;           // subgroupShuffle/ShuffleXor in compute shaders
  // Every subgroup operation class in compute shaders (VkSubgroupFeatureFlags; 0 where compute
  // shaders have none): a manifest's `requires` names each class.
  uint32_t subgroup_operations = 0;
  bool shader_float16 = false;         // float16_t arithmetic in shaders (Vulkan 1.2 feature)
  bool storage_buffer_16bit = false;   // 16-bit values in storage buffers (Vulkan 1.1 feature)
  // The device's feature behind each SPIR-V capability a user's shader may declare that needs one,
  // by the capability's name ("Int8", "StorageBuffer8BitAccess"): a manifest's variant whose
  // shader declares one the device lacks is skipped, naming it.
  std::map<std::string, bool> capability_features;
  // VK_KHR_pipeline_executable_properties: the driver reports per-pipeline statistics
  // (registers, shared memory, spills...). Enabled on the device where supported.
  bool pipeline_executable_info = false;
  // VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd: atomicAdd on float in storage
  // buffers. Enabled on the device where supported.
  bool float_atomic_add = false;
  // The rest of VK_EXT_shader_atomic_float that a user's shader may need, each enabled where
  // offered: float load/store/exchange on buffers, 64-bit float add on buffers, 32-bit float add on
  // shared memory; and Vulkan 1.2's 64-bit integer atomics on shared memory, Vulkan 1.3's integer
  // dot products.
  bool float32_atomics = false;
  bool float64_atomic_add = false;
  bool shared_float32_atomic_add = false;
  bool shared_int64_atomics = false;
  bool integer_dot_product = false;
  // Out-of-bounds image accesses are defined (reads 0 or a border, writes dropped): Vulkan 1.3's
  // robustImageAccess, or VK_EXT_image_robustness's before 1.3. Enabled on the device where
  // supported: it checks image accesses only, and robustBufferAccess, which would check every
  // buffer load, stays off.
  bool robust_image_access = false;
  // Storage images read and written without a format in the shader (shaderStorageImageReadWithoutFormat
  // and shaderStorageImageWriteWithoutFormat, core features the device enables where offered).
  bool storage_image_read_without_format = false;
  bool storage_image_write_without_format = false;
  double timestamp_period_ns = 0.0;
  uint32_t queue_family = 0;
  uint32_t timestamp_valid_bits = 0;  // of queue_family; 0: no GPU timer
  uint32_t max_workgroup_invocations = 0;
  std::array<uint32_t, 3> max_workgroup_size{};
  std::array<uint32_t, 3> max_workgroup_count{};
  uint32_t max_push_constant_bytes = 0;
  uint32_t max_storage_buffers_per_stage = 0;
  uint32_t max_dynamic_storage_buffers = 0;  // per set: every kernel binds its buffers dynamic
  uint32_t max_shared_memory_bytes = 0;
  uint64_t max_storage_buffer_range = 0;
  uint64_t min_storage_buffer_offset_alignment = 0;
  // A user's kernel's uniform buffers (a manifest's [[uniform]]), bound dynamic as its storage buffers.
  uint64_t max_uniform_buffer_range = 0;
  uint64_t min_uniform_buffer_offset_alignment = 0;
  uint32_t max_dynamic_uniform_buffers = 0;
  uint64_t max_allocation_bytes = 0;
  uint64_t device_local_bytes = 0;

  std::string ApiVersionString() const;
  // A file-name-safe key naming what sets the device's speed, the key of its stored baseline. A GPU:
  // vendor, device and driver version, e.g. "10de-2330-2434596864". A CPU device (lavapipe): its
  // speed is the host's, so vendor and device, the driver's version string, the host CPU's model
  // and the CPUs the process may use, e.g.
  // "10005-0000-mesa-22-3-6-llvm-15-0-6-amd-epyc-2cpu" (see CpuDeviceKey).
  std::string Key() const;
};

// Lists every physical device with its compute properties. Throws Error when there is no loader.
std::vector<DeviceInfo> ListDevices();

// Number of validation messages (warnings and errors) in this process so far; tests fail on any.
uint32_t ValidationMessages();

// A recursive mutex that serves waiting threads in the order they came.
class FairLock {
 public:
  void lock();
  void unlock();

 private:
  std::mutex mutex_;
  std::condition_variable turn_;
  uint64_t next_ = 0;     // the next ticket to hand out
  uint64_t serving_ = 0;  // the ticket that may hold the lock
  std::thread::id owner_;
  uint32_t depth_ = 0;
};

class Buffer;
class Kernel;

class Context {
 public:
  // Opens the device `options.device` names (or the default choice). Throws Error with the
  // reason when no Vulkan loader, no device or no matching device exists.
  explicit Context(const Options& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const DeviceInfo& info() const { return info_; }
  bool gpu_timer() const { return use_gpu_timer_; }
  const Options& options() const { return options_; }


  // Records `record` into a one-shot command buffer, submits it and waits.
  void Run(const std::function<void(Commands&)>& record);

  // Held around every use of the command pool (allocating, recording, freeing a command buffer)
  // and of the queue (a submission until its fence signals), by whichever thread: a case made
  // ahead on a second thread (Prefetch, harness/measure/measure.hpp) then submits between two timed
  // batches, never during one.
  // The lock is fair (first come, first served): a plain mutex lets the timed loop, which takes
  // it again right after each batch, starve the second thread until the loop ends, so cases made
  // ahead would wait for whole loops (docs/perf-notes.md, section 10).
  std::unique_lock<FairLock> LockDevice() const { return std::unique_lock(device_lock_); }

  // Harness-internal access.
  const vk::raii::Device& device() const { return device_; }
  const vk::raii::PhysicalDevice& physical_device() const { return physical_device_; }
  const vk::raii::Queue& queue() const { return queue_; }
  const vk::raii::CommandPool& command_pool() const { return command_pool_; }
  // Submits `command_buffer` and blocks until it finished (WaitForFences).
  void SubmitAndWait(const vk::raii::CommandBuffer& command_buffer);

  // Every submission and fence wait of the harness goes through these two, under LockDevice.
  // Submit: one submission to the queue; throws DeviceLost where the device is (or was) lost.
  // Where the run times by the device's timestamps, its command buffers go between a pair of
  // timestamps (submission_clock()), whose time goes to the submitting thread's phase in the time
  // ledger (harness/base/ledger.hpp); the caller's own timestamps are unchanged.
  void Submit(const vk::SubmitInfo& submit, vk::Fence fence);
  // Waits until every fence has signalled, for at most the dispatch timeout (--dispatch-timeout).
  // Then reads the timestamps of every submission that has finished (never waiting for others).
  // Past it, waits for the device to finish what it runs (its buffers cannot be freed in use: a
  // CPU device crashes the process), then throws Error naming the timeout and the flag. A lost
  // device (VK_ERROR_DEVICE_LOST) throws DeviceLost.
  void WaitForFences(std::span<const vk::Fence> fences);
  // The dispatch timeout (--dispatch-timeout), in seconds and in nanoseconds (at least 1).
  double dispatch_timeout_s() const { return options_.dispatch_timeout_s; }
  uint64_t dispatch_timeout_ns() const;
  // Why the device was lost (empty while it is not): once lost, nothing more is submitted.
  std::string device_lost() const;
  // Notes the device lost with `why`: every later Submit throws DeviceLost at once, and the run
  // stops (StopRun, harness/base/error.hpp). Public for the tests, which cannot lose a device.
  void NoteDeviceLost(std::string_view why);
  uint32_t FindMemoryType(uint32_t type_bits, vk::MemoryPropertyFlags required,
                          vk::MemoryPropertyFlags preferred) const;
  // A host-visible staging buffer of kStagingBytes (harness/vulkan/buffer.hpp) for an upload or a
  // download, from those kept (or a new one), and back when the transfer is done. Allocating
  // host-visible memory pins it, which costs milliseconds per 64 MiB on a GPU's driver, and every
  // transfer allocated its own: a case's uploads and its check's download each paid it.
  std::unique_ptr<Buffer> TakeStaging();
  void ReturnStaging(std::unique_ptr<Buffer> buffer);
  // The timestamps around each submission; null where the run does not time by the device's
  // timestamps (a queue without them, --timer=host: its submissions are timed by the host's clock,
  // which the extra commands would lengthen).
  SubmissionClock* submission_clock() { return submission_clock_.get(); }
  // The device's clock probe, made on first use by RaiseClocks (harness/vulkan/clock_probe.hpp).
  std::unique_ptr<ClockProbe>& clock_probe() { return clock_probe_; }
  // What the driver probes found, by probe (harness/vulkan/driver_probes.hpp): "" where the pattern works.
  std::map<std::string, std::string>& probe_findings() { return probe_findings_; }

  // A pipeline of csbench's own (a check's shader, harness/manifest/case_device_check.cpp) made once
  // a run for `key` (its source) by `make`, on first use, with the lock its users hold around a Bind
  // and the dispatch (a kernel's descriptor pool serves one thread at a time). Kept until the
  // context goes. Safe to call from several threads.
  struct OwnKernel {
    std::unique_ptr<Kernel> kernel;
    std::mutex lock;
  };
  OwnKernel& OwnKernelFor(const std::string& key, const std::function<std::unique_ptr<Kernel>()>& make);

 private:
  struct Messenger;
  Options options_;
  vk::raii::Context loader_;
  vk::raii::Instance instance_ = nullptr;
  std::unique_ptr<Messenger> messenger_;
  vk::raii::PhysicalDevice physical_device_ = nullptr;
  DeviceInfo info_;
  bool use_gpu_timer_ = false;
  vk::raii::Device device_ = nullptr;
  vk::raii::Queue queue_ = nullptr;
  vk::raii::CommandPool command_pool_ = nullptr;
  vk::raii::Fence fence_ = nullptr;
  std::unique_ptr<SubmissionClock> submission_clock_;  // after the pool: released before it
  std::map<std::string, std::string> probe_findings_;
  mutable FairLock device_lock_;
  mutable std::mutex lost_lock_;
  std::string device_lost_;  // under lost_lock_
  std::mutex staging_lock_;
  std::vector<std::unique_ptr<Buffer>> staging_;  // kept for TakeStaging, at most two (two threads)
  std::mutex own_kernels_lock_;
  std::map<std::string, std::unique_ptr<OwnKernel>> own_kernels_;  // released before the device
  std::unique_ptr<ClockProbe> clock_probe_;  // last: released before the device
};

}  // namespace csbench
