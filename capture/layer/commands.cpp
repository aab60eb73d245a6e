// Command buffers and submissions: the bound compute state each command buffer carries, the
// dispatches recorded in it, and, at each submission, their count (pass 1) or the reading of a
// captured dispatch's copies (pass 2). A dispatch that is not captured costs one small record at
// recording and a count at submission; nothing is added to the command buffer for it.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "capture/layer/layer.hpp"
#include "capture/layer/run_order.hpp"

namespace csbench::capture {

namespace {

Device* Lookup(Layer& layer, const void* handle) { return DeviceOf(layer, handle); }

constexpr long kMaxPendingPerKey = 4;

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo* info) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode != Config::Mode::kOff) {
    // A recording begun again before it ran: its captures are dropped (their staging buffers stay
    // until the device goes), so a later recording may take them.
    for (PendingCapture& c : layer.captures)
      if (c.cb == cb && !c.done) c.done = true;
    // Its counts reads are free again: a submission that held them was waited for.
    if (auto old = layer.command_buffers.find(cb); old != layer.command_buffers.end())
      for (const RecordedDispatch& d : old->second.dispatches)
        if (d.read >= 0) layer.reads[d.read].free = layer.reads[d.read].device != VK_NULL_HANDLE;
    layer.command_buffers[cb] = {.serial = layer.next_serial++};
  }
  lock.unlock();
  return device->table.BeginCommandBuffer(cb, info);
}

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint point, VkPipeline pipeline) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode != Config::Mode::kOff && point == VK_PIPELINE_BIND_POINT_COMPUTE)
    layer.command_buffers[cb].pipeline = pipeline;
  lock.unlock();
  device->table.CmdBindPipeline(cb, point, pipeline);
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint point,
                                                 VkPipelineLayout pipeline_layout, uint32_t first, uint32_t count,
                                                 const VkDescriptorSet* sets, uint32_t dynamic_count,
                                                 const uint32_t* dynamic) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode == Config::Mode::kCapture && point == VK_PIPELINE_BIND_POINT_COMPUTE) {
    CommandBuffer& state = layer.command_buffers[cb];
    // Dynamic offsets go to the sets in order, each taking one per dynamic descriptor it holds.
    uint32_t used = 0;
    for (uint32_t i = 0; i < count && first + i < state.sets.size(); ++i) {
      BoundSet& bound = state.sets[first + i];
      bound.set = sets[i];
      bound.dynamic_offsets.clear();
      auto set = layer.sets.find(sets[i]);
      if (set == layer.sets.end()) continue;
      auto layout = layer.set_layouts.find(set->second.layout);
      if (layout == layer.set_layouts.end()) continue;
      for (const LayoutBinding& b : layout->second.bindings)
        if (b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC || b.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC)
          for (uint32_t e = 0; e < b.count && used < dynamic_count; ++e)
            bound.dynamic_offsets.push_back(dynamic[used++]);
    }
  }
  lock.unlock();
  device->table.CmdBindDescriptorSets(cb, point, pipeline_layout, first, count, sets, dynamic_count, dynamic);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout pipeline_layout,
                                            VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                            const void* values) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode == Config::Mode::kCapture && (stages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
      offset + size <= 256) {
    CommandBuffer& state = layer.command_buffers[cb];
    std::memcpy(state.push.data() + offset, values, size);
    state.push_end = std::max(state.push_end, offset + size);
  }
  lock.unlock();
  device->table.CmdPushConstants(cb, pipeline_layout, stages, offset, size, values);
}

// A later dispatch of a sequence being captured in this recording: its step is noted, and its
// bindings no earlier dispatch of the sequence bound are copied before it. Returns whether it is
// the sequence's last (its copies after follow it).
bool ContinueSequence(Layer& layer, Device& device, VkCommandBuffer cb, PendingCapture& capture,
                      const RecordedDispatch& dispatch) {
  CommandBuffer& state = layer.command_buffers[cb];
  const uint32_t ordinal = static_cast<uint32_t>(state.dispatches.size());
  const uint32_t step = ordinal - capture.first;
  capture.steps.push_back({.pipeline = dispatch.pipeline,
                           .groups = dispatch.groups,
                           .push = {state.push.begin(), state.push.begin() + state.push_end},
                           .indirect = dispatch.kind == RecordedDispatch::Kind::kIndirect});
  capture.steps.back().counts.copy.source = dispatch.indirect;
  capture.steps.back().counts.copy.source_offset = dispatch.indirect_offset;
  auto refuse = [&](const std::string& why) {
    capture.notes.push_back(fmt::format("not captured: dispatch {} of the sequence: {}", step, why));
    capture.data = false;
  };
  if (dispatch.kind == RecordedDispatch::Kind::kBase)
    refuse("a dispatch with a base workgroup (vkCmdDispatchBase)");
  else if (state.transfers != capture.transfers)
    refuse(fmt::format(
        "{} transfer command(s) (copies, fills, updates, clears or blits) or executed secondary command "
        "buffer(s) recorded since the sequence's first "
        "dispatch change data the capture does not see",
        state.transfers - capture.transfers));
  RecordSequenceStep(layer, device, cb, capture);
  return ordinal == capture.last && capture.data;
}

// Notes a dispatch in its command buffer; in capture mode, each target that names it makes it a
// pending capture, with its copies recorded before it (a sequence: the first of its dispatches),
// and a later dispatch of a sequence pending in this recording is added to it. A dispatch may be
// both, or begin several captures (selected alone and as a sequence's first). Returns the
// captures whose copies after the dispatch are to be recorded.
std::vector<int> NoteDispatch(Layer& layer, Device& device, VkCommandBuffer cb, RecordedDispatch dispatch) {
  CommandBuffer& state = layer.command_buffers[cb];
  auto pipeline = layer.pipelines.find(state.pipeline);
  dispatch.pipeline = pipeline == layer.pipelines.end() ? UINT32_MAX : pipeline->second.id;
  dispatch.transfers = state.transfers;
  uint32_t ordinal = static_cast<uint32_t>(state.dispatches.size());
  std::vector<int> after;
  if (layer.config.mode == Config::Mode::kCapture && pipeline != layer.pipelines.end()) {
    for (size_t c = 0; c < layer.captures.size(); ++c) {
      PendingCapture& capture = layer.captures[c];
      if (!capture.sequence || capture.done || capture.cb != cb || ordinal <= capture.first || ordinal > capture.last)
        continue;
      if (ContinueSequence(layer, device, cb, capture, dispatch)) after.push_back(static_cast<int>(c));
    }
    for (uint32_t t = 0; t < layer.config.targets.size(); ++t) {
      const Config::Target& target = layer.config.targets[t];
      if (layer.targets_done.contains(t)) continue;
      // A program that records many command buffers before it submits one would otherwise get
      // staging copies in each: a few are enough for the first to run.
      if (target.by_key && std::count_if(layer.captures.begin(), layer.captures.end(), [&](const PendingCapture& c) {
                             return c.target == t && !c.done;
                           }) >= kMaxPendingPerKey)
        continue;
      // Pass 1 counted direct dispatches only under a pipeline and size: so does the key.
      if (target.by_key ? target.signature != pipeline->second.signature || target.groups != dispatch.groups ||
                              dispatch.kind != RecordedDispatch::Kind::kDirect
                        : target.serial != state.serial || target.ordinal != ordinal)
        continue;
      // A key's dispatch is read after its recording's first submission; several recordings may
      // hold one before any runs, and the first to finish is written.
      PendingCapture capture{.target = t,
                             .submission = target.by_key ? 1 : target.submission,
                             .device = device.handle,
                             .cb = cb,
                             .pipeline = dispatch.pipeline,
                             .groups = dispatch.groups,
                             .push = {state.push.begin(), state.push.begin() + state.push_end},
                             .sequence = target.sequence,
                             .first = ordinal,
                             .last = target.sequence ? target.last : ordinal,
                             .transfers = state.transfers};
      const bool indirect = dispatch.kind == RecordedDispatch::Kind::kIndirect;
      CountsRead counts;
      counts.copy.source = dispatch.indirect;
      counts.copy.source_offset = dispatch.indirect_offset;
      if (capture.sequence)
        capture.steps.push_back({.pipeline = dispatch.pipeline,
                                 .groups = dispatch.groups,
                                 .push = capture.push,
                                 .indirect = indirect,
                                 .counts = counts});
      else if (indirect) {
        capture.indirect = true;
        capture.counts = counts;
      }
      std::string which = capture.sequence ? "dispatch 0 of the sequence: " : "";
      if (dispatch.kind == RecordedDispatch::Kind::kBase)
        capture.notes.push_back("not captured: " + which + "a dispatch with a base workgroup (vkCmdDispatchBase)");
      else
        RecordCaptureBefore(layer, device, cb, capture);
      const int slot = static_cast<int>(layer.captures.size());
      dispatch.captures.push_back(slot);
      if (capture.data && capture.last == ordinal) after.push_back(slot);
      layer.captures.push_back(std::move(capture));
    }
  }
  state.dispatches.push_back(dispatch);
  return after;
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  std::vector<int> after;
  if (layer.config.mode != Config::Mode::kOff) after = NoteDispatch(layer, *device, cb, {.groups = {x, y, z}});
  if (after.empty()) {
    lock.unlock();
    device->table.CmdDispatch(cb, x, y, z);
    return;
  }
  // The copies around it go into the same command buffer, so the lock stays held until they are.
  device->table.CmdDispatch(cb, x, y, z);
  for (int capture : after) RecordCaptureAfter(*device, cb, layer.captures[capture]);
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz, uint32_t x,
                                           uint32_t y, uint32_t z) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode != Config::Mode::kOff) {
    RecordedDispatch d{.groups = {x, y, z}, .kind = RecordedDispatch::Kind::kBase};
    if (bx == 0 && by == 0 && bz == 0) d.kind = RecordedDispatch::Kind::kDirect;
    std::vector<int> after = NoteDispatch(layer, *device, cb, d);
    if (!after.empty()) {
      device->table.CmdDispatchBase(cb, bx, by, bz, x, y, z);
      for (int capture : after) RecordCaptureAfter(*device, cb, layer.captures[capture]);
      return;
    }
  }
  lock.unlock();
  device->table.CmdDispatchBase(cb, bx, by, bz, x, y, z);
}

// Pass 1: the copy of an indirect dispatch's counts, recorded before it, from the pool of reads
// (at most kMostReads at once); -1 where none could be made.
int ReadCountsOf(Layer& layer, Device& device, VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset) {
  constexpr size_t kMostReads = 4096;
  auto pooled = std::find_if(layer.reads.begin(), layer.reads.end(),
                             [&](const PooledRead& r) { return r.free && r.device == device.handle; });
  if (pooled == layer.reads.end()) {
    if (layer.reads.size() >= kMostReads) return -1;
    pooled = layer.reads.insert(layer.reads.end(), {.device = device.handle});
  }
  pooled->free = false;
  pooled->read.copy.source = buffer;
  pooled->read.copy.source_offset = offset;
  if (!StageCounts(layer, device, pooled->read)) {
    pooled->free = true;
    return -1;
  }
  RecordCountsRead(device, cb, pooled->read);
  return static_cast<int>(pooled - layer.reads.begin());
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode == Config::Mode::kOff) {
    lock.unlock();
    device->table.CmdDispatchIndirect(cb, buffer, offset);
    return;
  }
  RecordedDispatch d{.kind = RecordedDispatch::Kind::kIndirect, .indirect = buffer, .indirect_offset = offset};
  if (layer.config.mode == Config::Mode::kCount) d.read = ReadCountsOf(layer, *device, cb, buffer, offset);
  std::vector<int> after = NoteDispatch(layer, *device, cb, d);
  // The copies around it go into the same command buffer, so the lock stays held until they are.
  device->table.CmdDispatchIndirect(cb, buffer, offset);
  for (int capture : after) RecordCaptureAfter(*device, cb, layer.captures[capture]);
}

// Secondary command buffers run where they are executed: each is noted at its place among the
// recording's dispatches. Their dispatches change data unseen by a sequence of the recording's own
// dispatches around them, as a transfer command does.
VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer cb, uint32_t count, const VkCommandBuffer* secondaries) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, cb);
  if (layer.config.mode != Config::Mode::kOff) {
    CommandBuffer& state = layer.command_buffers[cb];
    for (uint32_t i = 0; i < count; ++i)
      state.executed.emplace_back(static_cast<uint32_t>(state.dispatches.size()), secondaries[i]);
    state.transfers += count;
  }
  lock.unlock();
  device->table.CmdExecuteCommands(cb, count, secondaries);
}

// Pass 1: a submission of a recording of two or more dispatches, a sequence the user may capture,
// counted by its pipelines (the first 64; a few hundred different runs at most).
void NoteRun(Layer& layer, const CommandBuffer& state) {
  constexpr size_t kMostRuns = 256, kMostSteps = 64;
  std::vector<uint32_t> pipelines;
  bool transfers = false;
  for (const RecordedDispatch& d : state.dispatches) {
    if (pipelines.size() < kMostSteps) pipelines.push_back(d.pipeline);
    transfers |= d.transfers != state.dispatches.front().transfers;
  }
  auto it = layer.runs.find(pipelines);
  if (it == layer.runs.end()) {
    if (layer.runs.size() >= kMostRuns) return;
    it = layer.runs.emplace(pipelines, RunCount{}).first;
  }
  RunCount& run = it->second;
  if (run.count++ == 0) {
    run.first = {.serial = state.serial, .ordinal = 0, .submission = state.submissions, .index = layer.dispatches};
    run.dispatches = static_cast<uint32_t>(state.dispatches.size());
    run.transfers = transfers;
  }
  layer.summary_dirty = true;
}

// Pass 1: an indirect dispatch whose counts are read once its submission has run.
struct LaterCount {
  RecordedDispatch dispatch;
  Locator where;
};

// Pass 1: one dispatch counted under its pipeline and workgroup counts (an indirect one's as read).
void CountDispatch(Layer& layer, const RecordedDispatch& d, const Locator& where) {
  const bool indirect = d.kind == RecordedDispatch::Kind::kIndirect;
  if (indirect) ++layer.indirect[d.pipeline];
  if (indirect && d.read < 0) ++layer.unread[d.pipeline];
  if (d.kind == RecordedDispatch::Kind::kBase) ++layer.based[d.pipeline];
  DispatchKey key{.pipeline = d.pipeline, .groups = d.groups};
  if (layer.config.nth.contains(where.index)) layer.nth[where.index] = {key, where};
  if (d.kind == RecordedDispatch::Kind::kBase || (indirect && d.read < 0)) return;
  KeyCount& count = layer.keys[key];
  // Indirect dispatches are counted after the direct ones of their submission: the first is the
  // earliest, whatever order they were counted in.
  if (count.count++ == 0 || where.index < count.first.index) {
    count.first = where;
    count.first_indirect = indirect;
  }
  count.indirect += indirect ? 1 : 0;
  layer.summary_dirty = true;
}

// One dispatch of a submitted recording (a primary's, or a secondary's it executes): in pass 2 the
// captures to read once it has run, in pass 1 its count (an indirect one's once its counts are read).
void NoteDispatchRun(Layer& layer, const CommandBuffer& state, uint32_t ordinal, std::vector<int>& finish,
                     std::vector<LaterCount>& later) {
  const RecordedDispatch& d = state.dispatches[ordinal];
  uint64_t index = layer.dispatches++;
  if (layer.config.mode == Config::Mode::kCapture) {
    for (int slot : d.captures) {
      PendingCapture& capture = layer.captures[slot];
      if (capture.submission == state.submissions) {
        finish.push_back(slot);
      } else if (capture.submission < state.submissions && capture.data && !capture.done &&
                 std::find(finish.begin(), finish.end(), slot) != finish.end()) {
        // Run again before its copies are read (a secondary executed twice in the submission):
        // the copies would hold that later run's data.
        capture.notes.push_back(
            "not captured: its command buffer ran again in the same submission, after the run captured");
        capture.data = false;
      }
    }
    return;
  }
  if (d.pipeline == UINT32_MAX) return;
  Locator where{.serial = state.serial, .ordinal = ordinal, .submission = state.submissions, .index = index};
  const Pipeline* pipeline = layer.pipeline_by_id[d.pipeline];
  if (!pipeline->written) {
    WritePipeline(layer, *pipeline);
    const_cast<Pipeline*>(pipeline)->written = true;
  }
  layer.summary_dirty = true;
  if (d.kind == RecordedDispatch::Kind::kIndirect && d.read >= 0)
    later.push_back({d, where});
  else
    CountDispatch(layer, d, where);
}

// Counts one submission of a command buffer, and one run of each secondary it executes, at its
// place among the primary's dispatches (a secondary's submissions count its runs); returns the
// captures to read once it has run, and (pass 1) the indirect dispatches whose counts are read then.
void NoteSubmission(Layer& layer, VkCommandBuffer cb, std::vector<int>& finish, std::vector<LaterCount>& later) {
  auto it = layer.command_buffers.find(cb);
  if (it == layer.command_buffers.end()) return;
  CommandBuffer& state = it->second;
  ++state.submissions;
  if (layer.config.mode == Config::Mode::kCount && state.dispatches.size() >= 2) NoteRun(layer, state);
  InRunOrder(
      state.dispatches.size(), state.executed,
      [&](uint32_t ordinal) { NoteDispatchRun(layer, state, ordinal, finish, later); },
      [&](VkCommandBuffer executed) {
        auto secondary = layer.command_buffers.find(executed);
        if (secondary == layer.command_buffers.end() || secondary == it) return;
        ++secondary->second.submissions;
        for (uint32_t o = 0; o < secondary->second.dispatches.size(); ++o)
          NoteDispatchRun(layer, secondary->second, o, finish, later);
      });
}

VkResult Submit(VkQueue queue, const std::vector<VkCommandBuffer>& cbs, const std::function<VkResult()>& down) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* device = Lookup(layer, queue);
  std::vector<int> finish;
  std::vector<LaterCount> later;
  if (layer.config.mode != Config::Mode::kOff)
    for (VkCommandBuffer cb : cbs) NoteSubmission(layer, cb, finish, later);
  lock.unlock();
  VkResult result = down();
  if ((finish.empty() && later.empty()) || result != VK_SUCCESS) return result;
  // The captured dispatch's copies, and pass 1's reads of indirect dispatches' counts, are read
  // once its submission has finished: the queue is waited for here, once, in the submission that
  // holds them.
  device->table.QueueWaitIdle(queue);
  lock.lock();
  for (LaterCount& one : later) {
    one.dispatch.groups = layer.reads[one.dispatch.read].read.Groups();
    CountDispatch(layer, one.dispatch, one.where);
  }
  for (int slot : finish) FinishCapture(layer, *device, layer.captures[slot]);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  std::vector<VkCommandBuffer> cbs;
  for (uint32_t s = 0; s < count; ++s)
    cbs.insert(cbs.end(), submits[s].pCommandBuffers, submits[s].pCommandBuffers + submits[s].commandBufferCount);
  Layer& layer = TheLayer();
  PFN_vkQueueSubmit next = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    next = Lookup(layer, queue)->table.QueueSubmit;
  }
  return Submit(queue, cbs, [&] { return next(queue, count, submits, fence); });
}

VkResult Submit2(VkQueue queue, uint32_t count, const VkSubmitInfo2* submits, VkFence fence, bool khr) {
  std::vector<VkCommandBuffer> cbs;
  for (uint32_t s = 0; s < count; ++s)
    for (uint32_t c = 0; c < submits[s].commandBufferInfoCount; ++c)
      cbs.push_back(submits[s].pCommandBufferInfos[c].commandBuffer);
  Layer& layer = TheLayer();
  PFN_vkQueueSubmit2 next = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    Device* device = Lookup(layer, queue);
    next = khr ? device->table.QueueSubmit2KHR : device->table.QueueSubmit2;
  }
  return Submit(queue, cbs, [&] { return next(queue, count, submits, fence); });
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2* submits,
                                            VkFence fence) {
  return Submit2(queue, count, submits, fence, false);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2KHR(VkQueue queue, uint32_t count, const VkSubmitInfo2* submits,
                                               VkFence fence) {
  return Submit2(queue, count, submits, fence, true);
}

}  // namespace

PFN_vkVoidFunction CommandFunction(const char* name) {
  static const NamedFunction kFunctions[] = {
      CSBENCH_LAYER_FUNCTION(BeginCommandBuffer),
      CSBENCH_LAYER_FUNCTION(CmdBindPipeline),
      CSBENCH_LAYER_FUNCTION(CmdBindDescriptorSets),
      CSBENCH_LAYER_FUNCTION(CmdPushConstants),
      CSBENCH_LAYER_FUNCTION(CmdDispatch),
      CSBENCH_LAYER_FUNCTION(CmdDispatchBase),
      CSBENCH_LAYER_FUNCTION(CmdDispatchIndirect),
      CSBENCH_LAYER_FUNCTION(CmdExecuteCommands),
      CSBENCH_LAYER_FUNCTION(QueueSubmit),
      CSBENCH_LAYER_FUNCTION(QueueSubmit2),
      CSBENCH_LAYER_FUNCTION(QueueSubmit2KHR),
      NamedFunction{"vkCmdDispatchBaseKHR", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatchBase)},
  };
  return FindNamed(kFunctions, name);
}

}  // namespace csbench::capture
