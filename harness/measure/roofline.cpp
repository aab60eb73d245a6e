#include "harness/measure/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <vector>

#include "harness/base/check.hpp"
#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/base/ledger.hpp"
#include "harness/measure/ceilings.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/session_state.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench {
namespace {

// The word `i` of a copy of `bytes`' source: a hash of the index and the size.
uint32_t SourceWord(uint64_t i, uint64_t bytes) {
  uint64_t z = (i + bytes) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

}  // namespace

// The source of a copy of `bytes`: random words from a hash of each index, made on the host's
// threads (one thread would take a large part of a second at 512 MiB, and a read's check makes the
// words again rather than downloading the source); a copy and a read do not depend on what the
// words are.
std::vector<uint32_t> SourceWords(uint64_t bytes) {
  std::vector<uint32_t> words(bytes / sizeof(uint32_t));
  ParallelFor(words.size(), size_t{1} << 20, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) words[i] = SourceWord(i, bytes);
  });
  return words;
}

double CopyGBs(uint64_t bytes, double seconds) { return 2.0 * static_cast<double>(bytes) / seconds * 1e-9; }

Copier::Copier(Context& context, uint64_t bytes, uint32_t workgroup, Access access, uint32_t copies, uint32_t loads)
    : context_(&context), bytes_(bytes), workgroup_(workgroup), access_(access), loads_(loads) {
  Require(bytes % 16 == 0, "a copy of whole vec4 elements");
  Require(access == Access::kCopy || workgroup > 0, "a read needs the read kernel's workgroup");
  Require(copies >= 1 && (copies == 1 || access == Access::kRead), "only a read rotates copies of its source");
  Require(loads >= 1 && loads <= 16, "the read kernel's loads a trip: 1 to 16");
  const std::vector<uint32_t> data = SourceWords(bytes);
  source_ = std::make_unique<RotatingInput>(context, std::as_bytes(std::span(data)), CacheMode::kCold, copies);
  if (workgroup == 0) {
    dst_ = std::make_unique<Buffer>(context, bytes);
    return;
  }
  const bool read = access == Access::kRead;
  kernel_ = std::make_unique<Kernel>(
      context, KernelSpec{.label = fmt::format("{} wg{}", read ? "read_kernel" : "copy_kernel", workgroup),
                          .source = read ? "roofline/read.comp" : "roofline/copy.comp",
                          .defines = read ? std::vector<Define>{{"LOADS", std::to_string(loads)}}
                                          : std::vector<Define>{},
                          .local_size = {workgroup, 1, 1},
                          .bindings = 2,
                          .push_bytes = 3 * sizeof(uint32_t)});
  // Whole 256-byte blocks, so that every window's dynamic offset is aligned.
  window_bytes_ = std::min<uint64_t>(bytes, context.info().max_storage_buffer_range / 256 * 256);
  Require(bytes % 256 == 0 || window_bytes_ == bytes, "a windowed copy needs whole 256-byte blocks");
  RequireSupport(copies == 1 || window_bytes_ == bytes,
                 fmt::format("a rotated read of {} MiB is larger than the device's maxStorageBufferRange ({} MiB)",
                             bytes >> 20, context.info().max_storage_buffer_range >> 20));
  // The read kernel takes blocks of `loads` elements per invocation.
  const auto window_count = static_cast<uint32_t>(window_bytes_ / 16);
  groups_ = CappedGroups(read ? (window_count + loads - 1) / loads : window_count, workgroup);
  // A read writes one word per workgroup; only the source's offset moves from window to window.
  const uint64_t dst_bytes = read ? uint64_t{groups_} * sizeof(uint32_t) : bytes;
  dst_ = std::make_unique<Buffer>(context, dst_bytes);
  bindings_ = std::make_unique<Bindings>(
      kernel_->Bind({{&source_->buffer(), window_bytes_}, {dst_.get(), read ? dst_bytes : window_bytes_}}));
}

Copier::~Copier() = default;

uint32_t Copier::copies() const { return source_->copies(); }

void Copier::Record(Commands& c, uint32_t copy) const {
  if (workgroup_ == 0) {
    c.Copy(source_->buffer(), 0, *dst_, 0, bytes_);
    return;
  }
  const uint32_t count = static_cast<uint32_t>(window_bytes_ / 16);
  for (uint64_t start = 0; start < bytes_; start += window_bytes_) {
    // The last window ends at the buffer's end and skips what the previous one copied.
    uint64_t offset = std::min(start, bytes_ - window_bytes_);
    if (start > 0) c.Barrier();
    const auto dst_offset = static_cast<uint32_t>(access_ == Access::kRead ? 0 : offset);
    const uint64_t source = offset + source_->Offset(copy);
    std::array<uint32_t, 2> offsets{static_cast<uint32_t>(source), dst_offset};
    std::array<uint32_t, 3> push{count, static_cast<uint32_t>((start - offset) / 16), start > 0 ? 1u : 0u};
    c.Dispatch(*kernel_, *bindings_, {groups_, 1, 1}, offsets, push);
  }
}

namespace {

// Each workgroup's XOR of the 32-bit words Copier::Record has it read from the source of a copy of
// `bytes` (SourceWords): read.comp's blocks of `loads` x workgroup elements, dealt to the
// workgroups in turn, window by window. The words are made as they are folded, and the workgroups
// are shared out among the host's threads (on one thread a 512 MiB read's check takes longer than
// its benchmark measures).
std::vector<uint32_t> FoldedByGroup(uint64_t bytes, uint64_t window_bytes, uint32_t groups, uint32_t workgroup,
                                    uint32_t loads) {
  std::vector<uint32_t> folded(groups, 0);
  const uint64_t total = bytes / 16;  // vec4 elements
  const uint64_t window = window_bytes / 16;
  const uint64_t block = uint64_t{loads} * workgroup;
  ParallelFor(groups, 1, [&](size_t begin, size_t end) {
    for (uint64_t start = 0; start < total; start += window) {
      // The window's elements from `start` on: the ones before it the window before read.
      const uint64_t offset = std::min(start, total - window);
      const uint64_t count = window - (start - offset);
      for (size_t g = begin; g < end; ++g) {
        uint32_t x = folded[g];
        for (uint64_t b = g * block; b < count; b += uint64_t{groups} * block) {
          for (uint64_t j = b; j < std::min(b + block, count); ++j) {
            const uint64_t e = 4 * (start + j);
            x ^= SourceWord(e, bytes) ^ SourceWord(e + 1, bytes) ^ SourceWord(e + 2, bytes) ^ SourceWord(e + 3, bytes);
          }
        }
        folded[g] = x;
      }
    }
  });
  return folded;
}

}  // namespace

bool Copier::Check() const {
  if (access_ == Access::kRead) {
    // The first window stores each word, the later ones XOR into it: a word the kernel never
    // writes keeps the poison.
    context_->Run([&](Commands& c) {
      c.Fill(*dst_, kPoison);
      c.Barrier();
      Record(c);
    });
    std::vector<uint32_t> got(groups_);
    dst_->Download(std::as_writable_bytes(std::span(got)));
    return got == FoldedByGroup(bytes_, window_bytes_, groups_, workgroup_, loads_);
  }
  context_->Run([&](Commands& c) {
    c.Fill(*dst_, kPoison);
    c.Barrier();
    Record(c);
  });
  return SameBytes(*context_, source_->buffer(), *dst_, bytes_);
}

uint64_t CacheEdgeBytes(const std::vector<std::pair<uint64_t, double>>& rates, bool confirmed) {
  if (rates.empty()) return 0;
  const double memory_gbs = std::max(rates.back().second, rates.size() > 1 ? rates[rates.size() - 2].second : 0.0);
  const auto cached = [&](size_t i) { return rates[i].second > kCacheRateFactor * memory_gbs; };
  uint64_t edge = 0;
  for (size_t i = 0; i < rates.size(); ++i) {
    if (cached(i) && (!confirmed || i == 0 || cached(i - 1))) edge = rates[i].first;
  }
  return edge;
}

namespace {

bool OnCpuDevice(const Context& context) { return context.info().type == "cpu"; }

// A ceiling's batches: a GPU's batches of 4 copies hide its submission and clock ramp behind the
// rounds; a CPU device (lavapipe) runs one copy for milliseconds, where a submission's cost is
// below its run-to-run noise, so single copies say the same in a quarter of the time.
double BestCopySeconds(Context& context, const Copier& copier) {
  return BestBatchSeconds(context, [&](Commands& c) { copier.Record(c); }, OnCpuDevice(context) ? 1 : 4, 5,
                          CeilingBudgetSeconds(context));
}

// The copy kernel's workgroups tried (those the device runs).
std::vector<uint32_t> CeilingWorkgroups(const Context& context, std::initializer_list<uint32_t> sizes) {
  std::vector<uint32_t> kept;
  for (uint32_t wg : sizes) {
    if (wg <= context.info().max_workgroup_invocations) kept.push_back(wg);
  }
  return kept;
}

// The copy command's rate by footprint, the cache it shows and the footprint beyond it, noted.
ColdCache CacheFromCopies(Context& context) {
  ColdCache cold;
  // Footprints of 1 MiB to 512 MiB (less where the device's memory is smaller), in one buffer; on
  // a CPU device to 256 MiB, well beyond the host's last-level cache, where the rate is already
  // memory's, and each page of a larger buffer costs the host a page fault.
  uint64_t largest = OnCpuDevice(context) ? 256ull << 20 : 512ull << 20;
  while (largest > (16ull << 20)) {
    try {
      RequireMemory(context, largest);
      break;
    } catch (const Unsupported&) {
      largest /= 2;
    }
  }
  // A CPU device's copies by the copy command, a memcpy through the host's caches. A GPU's by the
  // copy kernel, through the L2 every kernel reads through: a GPU's copy command can run below
  // memory's rate at every footprint and show no sign of the cache that the copy kernel's rates
  // show plainly (docs/perf-notes.md, section 15).
  const bool cpu = OnCpuDevice(context);
  std::unique_ptr<Buffer> buffer;
  if (cpu) {
    buffer = std::make_unique<Buffer>(context, largest);
    context.Run([&](Commands& c) { c.Fill(*buffer, 0x5a5a5a5a); });
  }
  const uint32_t workgroup = std::min<uint32_t>(256, context.info().max_workgroup_invocations);
  std::vector<std::pair<uint64_t, double>> rates;  // footprint, GB/s
  for (uint64_t footprint = 1ull << 20; footprint <= largest; footprint *= 2) {
    const uint64_t half = footprint / 2;
    // Batches of at least 64 MiB of traffic: a small copy's batch outlasts its submission.
    const auto per_batch = static_cast<uint32_t>(std::clamp<uint64_t>((64ull << 20) / footprint, 1, 64));
    std::unique_ptr<Copier> kernel;
    if (!cpu) {
      kernel = std::make_unique<Copier>(context, half, workgroup);
      Require(kernel->Check(), "the cache's copy kernel did not copy correctly");
    }
    const double seconds = BestBatchSeconds(
        context,
        [&](Commands& c) {
          if (cpu) {
            c.Copy(*buffer, 0, *buffer, half, half);
          } else {
            kernel->Record(c);
          }
        },
        per_batch, 5, CeilingBudgetSeconds(context) / 4);
    rates.emplace_back(footprint, static_cast<double>(footprint) / seconds * 1e-9);
  }
  cold.cache_bytes = CacheEdgeBytes(rates, cpu);
  std::string curve;
  for (const auto& [footprint, gbs] : rates) {
    curve += fmt::format("{}{} MiB {:.1f}", curve.empty() ? "" : ", ", footprint >> 20, gbs);
  }
  const uint64_t floor = OnCpuDevice(context) ? 16ull << 20 : kRooflineBytes;
  cold.footprint_bytes = std::clamp<uint64_t>(kColdSafety * cold.cache_bytes, floor, std::max(floor, largest));
  NoteCeiling("last_level_cache", static_cast<double>(cold.cache_bytes) / (1 << 20), "MiB",
              fmt::format("the largest footprint the {} copies more than {}x faster than the better of "
                          "{} MiB and half that (memory){}: "
                          "GB/s (read + written) by footprint: {}",
                          cpu ? "copy command" : "copy kernel (copy.comp)", kCacheRateFactor, largest >> 20,
                          cpu ? ", as it copied half that footprint (or the first)" : "", curve));
  NoteCeiling("cold_footprint", static_cast<double>(cold.footprint_bytes) / (1 << 20), "MiB",
              fmt::format("the bytes a cold rotation of inputs spans: {} x the last-level cache, at least {} MiB{}",
                          kColdSafety, floor >> 20,
                          OnCpuDevice(context) ? "" : " (the rotation of the stored GPU baselines)"));
  return cold;
}

}  // namespace

const ColdCache& MeasuredColdCache(Context& context) {
  CeilingState& ceilings = TheSession().ceilings();
  std::lock_guard guard(ceilings.measuring);
  std::map<const Context*, ColdCache>& measured = ceilings.cold;
  if (auto it = measured.find(&context); it != measured.end()) return it->second;
  ColdCache cold;
  const std::optional<double> cache_mib = ReusedCeiling("last_level_cache");
  const std::optional<double> footprint_mib = ReusedCeiling("cold_footprint");
  if (cache_mib && footprint_mib) {
    cold = {.cache_bytes = static_cast<uint64_t>(*cache_mib * (1 << 20)),
            .footprint_bytes = static_cast<uint64_t>(*footprint_mib * (1 << 20)),
            .reused = true};
    return measured[&context] = cold;
  }
  Spending spending(Phase::kCeiling);
  try {
    cold = CacheFromCopies(context);
  } catch (const std::exception& e) {
    // A device that cannot run the copies rotates over the GPU's footprint; the JSON says why.
    cold = {.cache_bytes = 0, .footprint_bytes = kRooflineBytes};
    NoteCeiling("cold_footprint", static_cast<double>(kRooflineBytes >> 20), "MiB",
                fmt::format("the last-level cache could not be measured ({}): the GPU's footprint", e.what()));
  }
  return measured[&context] = cold;
}

uint64_t ColdFootprintBytes(Context& context) { return MeasuredColdCache(context).footprint_bytes; }

uint64_t CeilingCopyBytes(Context& context) {
  if (!OnCpuDevice(context)) return kRooflineBytes;
  return std::clamp<uint64_t>(ColdFootprintBytes(context) / 2 / 256 * 256, 16ull << 20, kRooflineBytes);
}

namespace {

double MeasuredCopyGBs(Context& context) {
  const uint64_t bytes = CeilingCopyBytes(context);
  double gbs = 0;
  {
    Copier command(context, bytes, 0);
    gbs = CopyGBs(bytes, BestCopySeconds(context, command));
  }
  // A CPU device's copy command is the host's memcpy, which a kernel does not beat (lavapipe's copy
  // kernel ran at a tenth of its rate, docs/perf-notes.md section 27): its ceiling is the command's.
  for (uint32_t wg : OnCpuDevice(context) ? std::vector<uint32_t>{} : CeilingWorkgroups(context, {256u, 1024u})) {
    Copier kernel(context, bytes, wg);
    Require(kernel.Check(), "the roofline's copy kernel did not copy correctly");
    gbs = std::max(gbs, CopyGBs(bytes, BestCopySeconds(context, kernel)));
  }
  NoteCeiling("copy", gbs, "GB/s",
              fmt::format("device-to-device copy of {} MiB, {}; read and written bytes count", bytes >> 20,
                          OnCpuDevice(context) ? "vkCmdCopyBuffer (a CPU device's memcpy)"
                                               : "the best of vkCmdCopyBuffer and copy.comp"));
  return gbs;
}

double MeasuredReadGBs(Context& context, double copy_gbs) {
  // Twice the copy's bytes, as much as the copy moves: a read of 256 MiB lasts about 0.1 ms on a
  // GPU, where its launch and tail cost it a few percent, enough for a reduction of the largest
  // image to exceed the ceiling (docs/perf-notes.md, "A read ceiling for kernels that only read").
  const uint64_t bytes = 2 * CeilingCopyBytes(context);
  double gbs = copy_gbs;
  for (uint32_t wg : CeilingWorkgroups(context, {64u, 256u, 1024u})) {
    Copier reader(context, bytes, wg, Access::kRead);
    Require(reader.Check(), "the roofline's read kernel did not read correctly");
    gbs = std::max(gbs, static_cast<double>(bytes) / BestCopySeconds(context, reader) * 1e-9);
  }
  NoteCeiling("read", gbs, "GB/s", fmt::format("read of {} MiB by read.comp (or the copy, where faster)", bytes >> 20));
  return gbs;
}

}  // namespace

double MemoryCeilingGBs(Context& context, bool read_only) {
  const double copy = CachedCeiling(context, "copy", 1, [&] { return MeasuredCopyGBs(context); });
  if (!read_only) return copy;
  return CachedCeiling(context, "read", 1, [&] { return MeasuredReadGBs(context, copy); });
}

}  // namespace csbench

namespace csbench {

namespace {

// The bytes a resident copy copies: whole 256-byte blocks of half the footprint, at least one.
uint64_t ResidentHalf(double footprint) {
  return std::max<uint64_t>(static_cast<uint64_t>(footprint / 2) / 256 * 256, 256);
}

double MeasuredResidentCopyGBs(Context& context, double footprint, double dispatch_seconds) {
  const uint64_t half = ResidentHalf(footprint);
  const uint32_t wg = std::min<uint32_t>(256, context.info().max_workgroup_invocations);
  Copier copier(context, half, wg);
  Require(copier.Check(), "the resident copy did not copy correctly");
  // Batches of about 64 MiB of traffic: a small copy's batch outlasts its submission.
  const auto per_batch = static_cast<uint32_t>(std::clamp<uint64_t>((64ull << 20) / (2 * half), 4, 1000));
  const double seconds = BestBatchSeconds(context, [&](Commands& c) { copier.Record(c); }, per_batch, 3);
  const double gbs = 2.0 * static_cast<double>(half) / std::max(seconds - dispatch_seconds, seconds * 0.05) * 1e-9;
  NoteCeiling(ResidentCopyName(footprint), gbs, "GB/s",
              fmt::format("copy.comp over a footprint of {} KiB, repeated, net of one dependent dispatch a copy",
                          2 * half >> 10));
  return gbs;
}

}  // namespace

std::string ResidentCopyName(double footprint) {
  return fmt::format("copy_resident_{}KiB", 2 * ResidentHalf(footprint) >> 10);
}

double MeasuredResidentCopy(Context& context, double footprint, double dispatch_seconds) {
  if (footprint >= 2.0 * static_cast<double>(CeilingCopyBytes(context))) return 0;
  return CachedCeiling(context, ResidentCopyName(footprint), 1,
                       [&] { return MeasuredResidentCopyGBs(context, footprint, dispatch_seconds); });
}

}  // namespace csbench
