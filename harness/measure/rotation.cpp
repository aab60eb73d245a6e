// Inputs rotated past the last-level cache (--cache=cold): how many copies, and the buffer that
// holds them; and the poisoned runs of the built-in families' checks.
#include "harness/measure/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <future>
#include <limits>
#include <map>

#include "harness/base/error.hpp"
#include "harness/base/statistics.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench {

uint32_t RotationCopies(uint64_t bytes, uint64_t budget_bytes, CacheMode cache) {
  if (cache == CacheMode::kWarm || bytes == 0 || bytes >= budget_bytes) return 1;
  return static_cast<uint32_t>(std::min<uint64_t>((budget_bytes + bytes - 1) / bytes, kMaxRotationCopies));
}

uint32_t ColdCopies(Context& context, uint64_t bytes, CacheMode cache) {
  return cache == CacheMode::kWarm ? 1 : RotationCopies(bytes, ColdFootprintBytes(context), cache);
}

uint64_t RotatingInput::Stride(const Context& context, uint64_t bytes) {
  const uint64_t align = std::max<uint64_t>(context.info().min_storage_buffer_offset_alignment, 256);
  return (bytes + align - 1) / align * align;
}

RotatingInput::RotatingInput(Context& context, std::span<const std::byte> data, CacheMode cache, uint32_t copies)
    : slice_bytes_(data.size()), stride_(Stride(context, data.size())) {
  // A domain too large for the device skips its benchmark, naming the limit.
  RequireMemory(context, stride_);
  copies_ = copies > 0 ? copies : ColdCopies(context, stride_, cache);
  RequireMemory(context, stride_ * copies_);
  buffer_ = std::make_unique<Buffer>(context, stride_ * copies_);
  buffer_->Upload(data, 0);
  if (copies_ > 1) {
    context.Run([&](Commands& c) {
      for (uint32_t i = 1; i < copies_; ++i) c.Copy(*buffer_, 0, *buffer_, i * stride_, slice_bytes_);
    });
  }
}

namespace {

// `output` poisoned, `record`'s dispatch, then the first out.size() bytes of `output` into `out`.
void PoisonedDownload(Context& context, const Buffer& output, std::span<std::byte> out,
                      const std::function<void(Commands&)>& record) {
  context.Run([&](Commands& c) {
    c.Fill(output, kPoison);
    c.Barrier();
    record(c);
  });
  output.Download(out);
}

}  // namespace

std::vector<float> PoisonedRun(Context& context, const Buffer& output, size_t floats,
                               const std::function<void(Commands&)>& record) {
  std::vector<float> got(floats);
  PoisonedDownload(context, output, std::as_writable_bytes(std::span(got)), record);
  return got;
}

std::vector<uint32_t> PoisonedWords(Context& context, const Buffer& output, size_t words,
                                    const std::function<void(Commands&)>& record) {
  std::vector<uint32_t> got(words);
  PoisonedDownload(context, output, std::as_writable_bytes(std::span(got)), record);
  return got;
}

}  // namespace csbench
