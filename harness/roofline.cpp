#include "harness/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "harness/buffer.hpp"
#include "harness/check.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/kernel.hpp"
#include "harness/timing.hpp"
#include "kernels/random.hpp"

namespace csbench {
namespace {


// The best per-copy seconds of `rounds` batches of `per_batch` copies.
double BestCopySeconds(Context& context, const Copier& copier, uint32_t per_batch, uint32_t rounds) {
  TimedBatch batch(context, [&](Commands& c) {
    for (uint32_t i = 0; i < per_batch; ++i) {
      if (i > 0) c.Barrier();
      copier.Record(c);
    }
  });
  batch.Run();  // warm-up
  double best = 1e30;
  for (uint32_t r = 0; r < rounds; ++r) best = std::min(best, batch.Run() / per_batch);
  return best;
}

}  // namespace

double CopyGBs(uint64_t bytes, double seconds) { return 2.0 * static_cast<double>(bytes) / seconds * 1e-9; }

Copier::Copier(Context& context, uint64_t bytes, uint32_t workgroup)
    : context_(&context), bytes_(bytes), workgroup_(workgroup) {
  Require(bytes % 16 == 0, "a copy of whole vec4 elements");
  std::vector<float> data(bytes / sizeof(float));
  FillUniform(data, bytes);
  src_ = std::make_unique<Buffer>(context, bytes);
  dst_ = std::make_unique<Buffer>(context, bytes);
  src_->Upload(std::as_bytes(std::span(data)));
  if (workgroup > 0) {
    kernel_ = std::make_unique<Kernel>(context, KernelSpec{.label = fmt::format("copy_kernel wg{}", workgroup),
                                                           .source = "roofline/copy.comp",
                                                           .local_size = {workgroup, 1, 1},
                                                           .bindings = 2,
                                                           .push_bytes = 2 * sizeof(uint32_t)});
    // Whole 256-byte blocks, so that every window's dynamic offset is aligned.
    window_bytes_ = std::min<uint64_t>(bytes, context.info().max_storage_buffer_range / 256 * 256);
    Require(bytes % 256 == 0 || window_bytes_ == bytes, "a windowed copy needs whole 256-byte blocks");
    bindings_ = std::make_unique<Bindings>(kernel_->Bind({{src_.get(), window_bytes_}, {dst_.get(), window_bytes_}}));
  }
}

Copier::~Copier() = default;

void Copier::Record(Commands& c) const {
  if (workgroup_ == 0) {
    c.Copy(*src_, 0, *dst_, 0, bytes_);
    return;
  }
  const uint32_t count = static_cast<uint32_t>(window_bytes_ / 16);
  const uint32_t groups = CappedGroups(count, workgroup_);
  for (uint64_t start = 0; start < bytes_; start += window_bytes_) {
    // The last window ends at the buffer's end and skips what the previous one copied.
    uint64_t offset = std::min(start, bytes_ - window_bytes_);
    if (start > 0) c.Barrier();
    std::array<uint32_t, 2> offsets{static_cast<uint32_t>(offset), static_cast<uint32_t>(offset)};
    std::array<uint32_t, 2> push{count, static_cast<uint32_t>((start - offset) / 16)};
    c.Dispatch(*kernel_, *bindings_, {groups, 1, 1}, offsets, push);
  }
}

bool Copier::Check() const {
  context_->Run([&](Commands& c) {
    c.Fill(*dst_, kPoison);
    c.Barrier();
    Record(c);
  });
  std::vector<std::byte> a(bytes_), b(bytes_);
  src_->Download(a);
  dst_->Download(b);
  return std::memcmp(a.data(), b.data(), bytes_) == 0;
}

const Roofline& MeasuredRoofline(Context& context) {
  static Context* measured_on = nullptr;
  static Roofline roofline;
  if (measured_on == &context) return roofline;
  const uint64_t bytes = kRooflineBytes;
  roofline = {};
  {
    Copier command(context, bytes, 0);
    roofline.copy_command_gbs = CopyGBs(bytes, BestCopySeconds(context, command, 4, 3));
  }
  for (uint32_t wg : {256u, 1024u}) {
    if (wg > context.info().max_workgroup_invocations) continue;
    Copier kernel(context, bytes, wg);
    Require(kernel.Check(), "the roofline's copy kernel did not copy correctly");
    roofline.copy_kernel_gbs = std::max(roofline.copy_kernel_gbs, CopyGBs(bytes, BestCopySeconds(context, kernel, 4, 3)));
  }
  measured_on = &context;
  return roofline;
}

}  // namespace csbench
