// Command buffers recorded once and submitted back to back without waiting for each, so that the
// host handles the result of one while the device already runs the next ones: the asynchronous
// execution and pipelining of the Gray-Scott course. TimedBatch times one submission on the GPU;
// what this overlaps is host work with device work, so it is timed on the host clock.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>
#include <vulkan/vulkan_raii.hpp>

namespace csbench {

class Commands;
class Context;

class PipelinedBatches {
 public:
  // Records `count` command buffers; `record(commands, i)` fills the i-th. Each begins and ends
  // with Commands::Barrier, so it sees what earlier submissions wrote, and the host sees what it
  // wrote once it has finished.
  PipelinedBatches(Context& context, uint32_t count, const std::function<void(Commands&, uint32_t)>& record);
  // Waits for batches still in flight (after an error in `done`), so nothing is freed in use.
  ~PipelinedBatches();
  PipelinedBatches(const PipelinedBatches&) = delete;
  PipelinedBatches& operator=(const PipelinedBatches&) = delete;

  uint32_t size() const { return static_cast<uint32_t>(fences_.size()); }

  // Submits batches 0, 1, ... in order with at most `depth` of them in flight: it submits the
  // first `depth`, then for each k waits until batch k has finished, calls `done(k)` and submits
  // batch k + depth. So the device runs batches k + 1 ... k + depth - 1 while the host is in
  // done(k), and batch k + depth may reuse whatever batch k wrote for the host (a slot k % depth).
  // Returns once every batch has finished and been handled. Throws Error when a batch does not
  // finish within the context's dispatch timeout (Context::WaitForFences), DeviceLost when the
  // device is lost.
  void Run(uint32_t depth, const std::function<void(uint32_t)>& done);

 private:
  void Submit(uint32_t i);
  void Wait(uint32_t i);

  Context* context_;
  vk::raii::CommandBuffers command_buffers_ = nullptr;
  std::vector<vk::raii::Fence> fences_;
  std::vector<bool> in_flight_;
};

}  // namespace csbench
