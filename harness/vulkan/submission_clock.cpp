#include "harness/vulkan/submission_clock.hpp"

#include "harness/base/error.hpp"

namespace csbench {
namespace {

thread_local bool t_host_clocked = false;

}  // namespace

SubmissionClock::HostClocked::HostClocked() : outer_(t_host_clocked) { t_host_clocked = true; }
SubmissionClock::HostClocked::~HostClocked() { t_host_clocked = outer_; }

SubmissionClock::SubmissionClock(const vk::raii::Device& device, const vk::raii::CommandPool& pool,
                                 uint32_t valid_bits, double period_ns, uint32_t slots)
    : mask_(valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valid_bits) - 1),
      period_ns_(period_ns),
      slots_(slots) {
  Require(valid_bits > 0 && period_ns > 0 && slots > 0, "a submission clock needs a queue with timestamps");
  queries_ = CSBENCH_VK(vk::raii::QueryPool(
      device, vk::QueryPoolCreateInfo{.queryType = vk::QueryType::eTimestamp, .queryCount = 2 * slots}));
  const vk::CommandBufferAllocateInfo allocate{
      .commandPool = *pool, .level = vk::CommandBufferLevel::ePrimary, .commandBufferCount = slots};
  first_ = CSBENCH_VK(vk::raii::CommandBuffers(device, allocate));
  last_ = CSBENCH_VK(vk::raii::CommandBuffers(device, allocate));
  for (uint32_t i = 0; i < slots; ++i) {
    // ALL_COMMANDS on both: the first timestamp waits for whatever the queue ran before (an
    // earlier submission still running), so that the pairs of submissions in flight together do
    // not overlap and their sum is the device's busy time, not more.
    first_[i].begin(vk::CommandBufferBeginInfo{});
    first_[i].resetQueryPool(*queries_, 2 * i, 2);
    first_[i].writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, *queries_, 2 * i);
    first_[i].end();
    last_[i].begin(vk::CommandBufferBeginInfo{});
    last_[i].writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, *queries_, 2 * i + 1);
    last_[i].end();
  }
  NoteDeviceTimed();
}

SubmissionClock::Bracket SubmissionClock::Around(std::span<const vk::CommandBuffer> buffers) {
  Bracket bracket;
  if (t_host_clocked) {
    bracket.buffers.assign(buffers.begin(), buffers.end());
    return bracket;
  }
  std::lock_guard guard(lock_);
  HarvestLocked();
  const uint32_t count = static_cast<uint32_t>(slots_.size());
  // The pairs are taken in turn, never the one just freed: a pair read through its availability
  // may belong to a submission whose fence its caller has not waited for yet, and a command
  // buffer submitted again before that wait is one still pending for the validation layer.
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t i = (next_ + k) % count;
    if (slots_[i].state != State::kFree) continue;
    slots_[i] = {.state = State::kTaken, .where = CurrentPhase()};
    next_ = (i + 1) % count;
    bracket.slot = i;
    break;
  }
  if (!bracket.slot) {
    NoteUnmeasuredSubmission();
    bracket.buffers.assign(buffers.begin(), buffers.end());
    return bracket;
  }
  bracket.buffers.reserve(buffers.size() + 2);
  bracket.buffers.push_back(*first_[*bracket.slot]);
  bracket.buffers.insert(bracket.buffers.end(), buffers.begin(), buffers.end());
  bracket.buffers.push_back(*last_[*bracket.slot]);
  return bracket;
}

void SubmissionClock::Submitted(const Bracket& bracket) {
  if (!bracket.slot) return;
  std::lock_guard guard(lock_);
  if (slots_[*bracket.slot].state == State::kTaken) slots_[*bracket.slot].state = State::kSubmitted;
}

void SubmissionClock::Failed(const Bracket& bracket) {
  if (!bracket.slot) return;
  std::lock_guard guard(lock_);
  slots_[*bracket.slot].state = State::kFree;
}

void SubmissionClock::Harvest() {
  std::lock_guard guard(lock_);
  HarvestLocked();
}

void SubmissionClock::HarvestLocked() {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.state != State::kSubmitted) continue;
    // Each query's value and its availability (non-zero once written).
    std::vector<uint64_t> read;
    try {
      read = queries_
                 .getResults<uint64_t>(2 * i, 2, 4 * sizeof(uint64_t), 2 * sizeof(uint64_t),
                                       vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWithAvailability)
                 .second;
    } catch (const vk::SystemError&) {
      // A device that cannot answer (lost) keeps no pair in use.
      slot.state = State::kFree;
      continue;
    }
    if (read[1] == 0 || read[3] == 0) continue;
    // The difference within the valid bits: a counter that wrapped once between the two stamps
    // still gives the time between them.
    const uint64_t ticks = (read[2] - read[0]) & mask_;
    AddDeviceSeconds(slot.where, static_cast<double>(ticks) * period_ns_ * 1e-9);
    slot.state = State::kFree;
  }
}

void SubmissionClock::Abandon() {
  std::lock_guard guard(lock_);
  for (Slot& slot : slots_) slot.state = State::kFree;
}

uint32_t SubmissionClock::in_flight() const {
  std::lock_guard guard(lock_);
  uint32_t count = 0;
  for (const Slot& slot : slots_) count += slot.state == State::kSubmitted;
  return count;
}

}  // namespace csbench
