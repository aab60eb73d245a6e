// The ceiling family: the device's limits other than memory bandwidth (the roofline family's), each
// a checked kernel timed like every other benchmark. The compute peaks (FP32, packed FP16 and
// INT32 multiply-adds), subgroup-shuffle throughput, shared-memory read bandwidth, the cost of a
// dispatch (alone, by the host's clock around submit and wait; and the device time one dependent
// dispatch adds in a command buffer), and host-device copy bandwidth through each kind of
// host-visible memory; and a fused Gray-Scott kernel's instruction mix (its own kernel without its
// DRAM traffic, grayscott::OnChip). The peaks and the dispatch cost that `bound%` is judged against
// are the same kernels, measured once per run on first use (harness/measure/ceilings.hpp).
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <span>
#include <memory>
#include <string>
#include <vector>

#include "bench/grayscott.hpp"
#include "harness/base/error.hpp"
#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"
#include "harness/measure/ceilings.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/pipeline_stats.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/ceiling/reference.hpp"

namespace csbench::ceiling {
namespace {

enum class Kind {
  kPeak,
  kShuffle,
  kShared,
  kDispatchAlone,
  kDispatchDependent,
  kReadDispatch,
  kUpload,
  kDownload,
  kOnChip
};

struct Variant {
  std::string name;
  Kind kind = Kind::kPeak;
  Timer timer = Timer::kTimestamps;  // harness/family/family.hpp
  Peak peak = Peak::kFp32;            // kPeak
  Memory memory = Memory::kHostCached;  // kUpload, kDownload: the host side's memory
  std::string of;                       // kOnChip: the Gray-Scott variant
  uint32_t loads = 0;                   // kReadDispatch: the read kernel's loads an invocation and trip
  std::vector<Extent> workgroups;
  std::vector<Extent> domains;
  std::vector<Extent> test_domains;
  std::vector<Extent> test_workgroups;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// Trips (of 16 steps) of the shuffle and shared-memory kernels: about 2 ms a dispatch on an H200
// at the large domain.
constexpr uint32_t kTrips = 16;

// Sets the rate counter `name` to `per_iteration` billions a second.
void SetRate(benchmark::State& state, const std::string& name, double per_iteration) {
  state.counters[name] =
      benchmark::Counter(per_iteration * static_cast<double>(state.iterations()) * 1e-9, benchmark::Counter::kIsRate);
}

// A kernel of `invocations` invocations, one result word each (`words` per invocation), recorded
// as one dispatch over the 2D grid the large domain needs.
class GridKernel {
 public:
  GridKernel(Context& context, const KernelSpec& spec, uint32_t invocations, uint32_t words)
      : invocations_(invocations),
        results_(std::make_unique<Buffer>(context, uint64_t{invocations} * words * sizeof(uint32_t))),
        kernel_(std::make_unique<Kernel>(context, spec)),
        bindings_(std::make_unique<Bindings>(kernel_->Bind({{results_.get(), 0}}))) {}

  void Record(Commands& c, uint32_t trips) const {
    const std::array<uint32_t, 2> push{invocations_, trips};
    const uint32_t workgroup = kernel_->spec().local_size[0];
    c.Dispatch(*kernel_, *bindings_, GroupGrid((uint64_t{invocations_} + workgroup - 1) / workgroup), {}, push);
  }

  const Buffer& results() const { return *results_; }

 private:
  uint32_t invocations_;
  std::unique_ptr<Buffer> results_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

// A compute peak: peak.comp at the point's invocations and workgroup.
class PeakCase : public Case {
 public:
  PeakCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context), name_(point.name), peak_(variant.peak), invocations_(point.domain.x) {
    RequireWorkgroup(*context_, point.workgroup);
    kernel_ = std::make_unique<PeakKernel>(*context_, peak_, invocations_, point.workgroup.x);
  }

  Comparison Check() override { return kernel_->Check(); }

  void Measure(benchmark::State& state) override {
    const double n = invocations_;
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { kernel_->Record(c); }, 1,
        {.elements = n, .bytes = 4 * n, .ops = kernel_->ops(), .peak = peak_, .roofline = false});
    SetRate(state, std::string(PeakRateUnit(peak_)), kernel_->ops());
  }

 private:
  Context* context_;
  std::string name_;
  Peak peak_;
  uint32_t invocations_;
  std::unique_ptr<PeakKernel> kernel_;
};

// Subgroup shuffles (shuffle.comp), or shared-memory reads (shared.comp).
class ExchangeCase : public Case {
 public:
  ExchangeCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context), name_(point.name), shuffle_(variant.kind == Kind::kShuffle), invocations_(point.domain.x),
        workgroup_(point.workgroup.x) {
    const DeviceInfo& info = context_->info();
    RequireWorkgroup(*context_, point.workgroup);
    if (shuffle_) {
      RequireSupport(info.subgroup_shuffle, "subgroup shuffles in compute shaders");
      RequireSupport(info.subgroup_size >= 4 && workgroup_ % info.subgroup_size == 0,
                     fmt::format("whole subgroups of at least 4 invocations (subgroup size {}, workgroup {})",
                                 info.subgroup_size, workgroup_));
    } else {
      RequireSupport(info.max_shared_memory_bytes >= 32768,
                     fmt::format("32 KiB of shared memory per workgroup (the device has {} bytes)",
                                 info.max_shared_memory_bytes));
    }
    kernel_ = std::make_unique<GridKernel>(
        *context_,
        KernelSpec{.label = variant.name,
                   .source = shuffle_ ? "ceiling/shuffle.comp" : "ceiling/shared.comp",
                   .local_size = {workgroup_, 1, 1},
                   .bindings = 1,
                   .push_bytes = 2 * sizeof(uint32_t)},
        invocations_, shuffle_ ? 2 : 1);
  }

  Comparison Check() override {
    const uint32_t words = shuffle_ ? 2 : 1;
    const std::vector<uint32_t> got = PoisonedWords(*context_, kernel_->results(), size_t{invocations_} * words,
                                                    [&](Commands& c) { kernel_->Record(c, kTrips); });
    // Each result depends on the invocation's lane only (its subgroup lane, written beside it, or
    // its lane in the workgroup): one host computation per lane, before the parallel compare.
    const uint32_t lanes = shuffle_ ? context_->info().subgroup_size : workgroup_;
    if (shuffle_) {
      for (size_t i = 0; i < invocations_; ++i) {
        if (got[2 * i + 1] < lanes) continue;
        Comparison c;
        c.message = fmt::format("invocation {} reports subgroup lane {} of a subgroup of {}", i, got[2 * i + 1], lanes);
        return c;
      }
    }
    std::vector<uint32_t> by_lane(lanes);
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      by_lane[lane] = shuffle_ ? ShuffleResult(lane, kTrips) : SharedResult(lane, kTrips);
    }
    auto want = [&](size_t i) { return by_lane[shuffle_ ? got[2 * i + 1] : i % workgroup_]; };
    return CompareWords(got, want, words);
  }

  void Measure(benchmark::State& state) override {
    const double n = invocations_;
    const double per_invocation = double{kTrips} * kStepsPerTrip;
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { kernel_->Record(c, kTrips); }, 1,
        {.elements = n, .bytes = 4 * n * (shuffle_ ? 2 : 1), .roofline = false});
    // A shuffle of a uvec4 is four lanes' words; a shared-memory read is one uvec4 (16 bytes).
    if (shuffle_) {
      SetRate(state, "Gshuffle/s", n * per_invocation * 4);
    } else {
      SetRate(state, "shared GB/s", n * per_invocation * 16);
    }
  }

 private:
  Context* context_;
  std::string name_;
  bool shuffle_;
  uint32_t invocations_;
  uint32_t workgroup_;
  std::unique_ptr<GridKernel> kernel_;
};

// The cost of a dispatch: an empty one submitted alone (the host's clock around submit and wait),
// or one after another in a command buffer (the device's time per dispatch).
class DispatchCase : public Case {
 public:
  DispatchCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context), name_(point.name), alone_(variant.kind == Kind::kDispatchAlone) {
    RequireWorkgroup(*context_, point.workgroup);
    empty_ = std::make_unique<EmptyDispatch>(*context_, point.workgroup.x);
    if (alone_) batch_ = std::make_unique<TimedBatch>(*context_, [&](Commands& c) { empty_->Record(c); });
  }

  Comparison Check() override { return empty_->Check(); }

  void Measure(benchmark::State& state) override {
    const Work work{.elements = 1, .roofline = false};
    if (alone_) {
      MeasureHostClocked(state, context_, [] {}, [&] { batch_->Run(); }, work);
    } else {
      MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { empty_->Record(c); }, 1, work);
    }
  }

 private:
  Context* context_;
  std::string name_;
  bool alone_;
  std::unique_ptr<EmptyDispatch> empty_;
  std::unique_ptr<TimedBatch> batch_;
};

// One dependent dispatch of the read kernel over an image's vec4 pixels, from copies rotated past
// the last-level cache as the reduction family's input is (RotationCopies of the run's cache
// mode): the least time a dispatch that reads those bytes from memory takes, the dispatch's cost,
// the first round trip to memory and the bytes at the read rate together. The reduction's variants
// at the same domain read against the fastest of the loads a trip: at small images that fixed
// cost is much of their time, and fewer loads an invocation (more invocations) read them sooner.
class ReadDispatchCase : public Case {
  // The image's bytes: vec4 pixels.
  static uint64_t ImageBytes(const Point& point) { return uint64_t{point.domain.x} * point.domain.y * 16; }

 public:
  ReadDispatchCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context),
        name_(point.name),
        pixels_(static_cast<double>(point.domain.x) * point.domain.y),
        copier_(*context_, ImageBytes(point), point.workgroup.x, Access::kRead,
                ColdCopies(*context_, RotatingInput::Stride(*context_, ImageBytes(point)), suite.options.cache),
                variant.loads) {
    RequireWorkgroup(*context_, point.workgroup);
  }

  Comparison Check() override {
    Comparison c;
    c.passed = copier_.Check();
    if (!c.passed) c.message = "a workgroup's XOR of what it read differs from the CPU's";
    return c;
  }

  void Measure(benchmark::State& state) override {
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { copier_.Record(c, i); }, copier_.copies(),
        {.elements = pixels_, .bytes = 16 * pixels_, .read_only = true});
  }

 private:
  Context* context_;
  std::string name_;
  double pixels_;
  Copier copier_;
};

// A copy between host-visible memory of the variant's kind and device-local memory, by
// vkCmdCopyBuffer, timed by the device (the copy engine's or the queue's time for it).
class TransferCase : public Case {
 public:
  TransferCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context), name_(point.name), bytes_(uint64_t{point.domain.x} * 16) {
    RequireMemory(*context_, bytes_);
    auto host = std::make_unique<Buffer>(*context_, bytes_, variant.memory);
    auto device = std::make_unique<Buffer>(*context_, bytes_);
    const std::vector<uint32_t> words = SourceWords(bytes_);
    const bool upload = variant.kind == Kind::kUpload;
    (upload ? *host : *device).Upload(std::as_bytes(std::span(words)));
    src_ = upload ? std::move(host) : std::move(device);
    dst_ = upload ? std::move(device) : std::move(host);
  }

  Comparison Check() override {
    context_->Run([&](Commands& c) {
      c.Fill(*dst_, kPoison);
      c.Barrier();
      c.Copy(*src_, 0, *dst_, 0, bytes_);
    });
    Comparison c;
    // Compared by the device's copies into staging: a read of write-combined memory by the host
    // crawls.
    c.passed = SameBytes(*context_, *src_, *dst_, bytes_);
    if (!c.passed) c.message = "the copy's destination differs from its source";
    return c;
  }

  void Measure(benchmark::State& state) override {
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { c.Copy(*src_, 0, *dst_, 0, bytes_); }, 1,
        {.elements = static_cast<double>(bytes_ / 16), .bytes = static_cast<double>(bytes_), .roofline = false});
  }

 private:
  Context* context_;
  std::string name_;
  uint64_t bytes_;
  std::unique_ptr<Buffer> src_;
  std::unique_ptr<Buffer> dst_;
};

// A fused Gray-Scott variant's instruction-mix ceiling (grayscott::OnChip): its elements are the
// cell-steps a simulation pass over the same grid advances, so its Gelem/s reads against the
// variant's own run_simulation entry at the same workgroup and domain.
class OnChipCase : public Case {
 public:
  OnChipCase(Suite& suite, const Variant& variant, const Point& point) : context_(suite.context), name_(point.name) {
    on_chip_ = std::make_unique<grayscott::OnChip>(*context_, grayscott::VariantNamed(variant.of), point.workgroup,
                                                   point.domain);
  }

  Comparison Check() override { return on_chip_->Check(); }

  void Measure(benchmark::State& state) override {
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { on_chip_->Record(c); }, 1,
        {.elements = on_chip_->cell_steps(), .roofline = false});
    // Registers and shared memory: the simulation's own pipeline, so its entries carry the same
    // statistics (an earlier build of its own compiled to more registers and was no ceiling).
    for (const PipelineStatistic& stat : PipelineStatistics(*context_, on_chip_->spec())) {
      state.counters["stat:" + stat.name] = stat.value;
    }
  }

 private:
  Context* context_;
  std::string name_;
  std::unique_ptr<grayscott::OnChip> on_chip_;
};

std::unique_ptr<Case> Make(Suite& suite, const Variant& variant, const Point& point) {
  switch (variant.kind) {
    case Kind::kPeak: return std::make_unique<PeakCase>(suite, variant, point);
    case Kind::kShuffle:
    case Kind::kShared: return std::make_unique<ExchangeCase>(suite, variant, point);
    case Kind::kDispatchAlone:
    case Kind::kDispatchDependent: return std::make_unique<DispatchCase>(suite, variant, point);
    case Kind::kReadDispatch: return std::make_unique<ReadDispatchCase>(suite, variant, point);
    case Kind::kUpload:
    case Kind::kDownload: return std::make_unique<TransferCase>(suite, variant, point);
    case Kind::kOnChip: return std::make_unique<OnChipCase>(suite, variant, point);
  }
  return nullptr;
}

const Family<Variant>& Descriptor() {
  // Invocations: 2^16 (a CPU device's size; a quarter of an H200's resident invocations) and 2^24
  // (the GPU's ceiling: 60 waves, so the last one's tail costs under 2%). A partial last
  // workgroup in the test. 256 invocations a workgroup: the copy kernel's best on the H200.
  const std::vector<Extent> kWorkgroup = {{256, 1}};
  const std::vector<Extent> kInvocations = {{1u << 16, 1}, {1u << 24, 1}};
  const std::vector<Extent> kTest = {{1000, 1}};
  // A CPU device's default set measures the peaks, the dispatch costs and the copies through
  // cached host memory, at a CPU's sizes: every bound% of its run is judged against them.
  auto compute = [&](std::string name, Kind kind, Peak peak = Peak::kFp32) {
    return Variant{.name = std::move(name), .kind = kind, .peak = peak, .workgroups = kWorkgroup,
                   .domains = kInvocations, .test_domains = kTest, .cpu_default = {{.domains = {kInvocations[0]}}}};
  };
  // One workgroup of 64 invocations: the smallest dispatch every device runs whole.
  auto dispatch = [](std::string name, Kind kind, Timer timer) {
    return Variant{.name = std::move(name), .kind = kind, .timer = timer, .workgroups = {{64, 1}},
                   .domains = {{64, 1}}, .test_domains = {{64, 1}}, .cpu_default = kEveryPoint};
  };
  // vec4 elements: 256 MiB, beyond the host's last-level cache and the device's: a GPU serves
  // repeated uploads of a smaller buffer from its L2, at several times its host link's rate. The
  // host-visible device-local kind (a BAR) is left out: a copy from it is a copy within device
  // memory, at device memory's rate, and a host's own writes into the mapping are another
  // measurement (docs/perf-notes.md, section 11).
  auto transfer = [](std::string name, Kind kind, Memory memory) {
    return Variant{.name = std::move(name), .kind = kind, .memory = memory, .domains = {{1u << 24, 1}},
                   .test_domains = {{1000, 1}},
                   .cpu_default = memory == Memory::kHostCached ? kEveryPoint : std::vector<Pick>{}};
  };
  // A read of the reduction family's images (its five domains, vec4 pixels), at the read kernel's
  // best workgroup on the H200, with 8 loads an invocation and trip (the roofline's), 2 or 1.
  auto read_dispatch = [&](uint32_t loads) {
    return Variant{.name = fmt::format("read_dispatch_loads{}", loads), .kind = Kind::kReadDispatch, .loads = loads,
                   .workgroups = kWorkgroup,
                   .domains = {{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}, {7680, 4320}},
                   .test_domains = {{97, 61}}};
  };
  // A fused Gray-Scott kernel's instruction mix, over the grids of the family's two domains; the
  // test at a CPU device's subgroup size (a row is one subgroup), where the table's 32 is refused.
  auto on_chip = [](std::string of, Extent workgroup) {
    return Variant{.name = of + "_on_chip", .kind = Kind::kOnChip, .of = of, .workgroups = {workgroup},
                   .domains = {{2048, 1024}, {8192, 8192}}, .test_domains = {{131, 97}},
                   .test_workgroups = {{8, workgroup.y}}};
  };
  static const Family<Variant> family{
      .name = "ceiling",
      .variants = {compute("fp32_fma", Kind::kPeak, Peak::kFp32),
                   compute("fp16_fma", Kind::kPeak, Peak::kFp16),
                   compute("int32_mad", Kind::kPeak, Peak::kInt32),
                   compute("subgroup_shuffle", Kind::kShuffle),
                   compute("shared_read", Kind::kShared),
                   // A dispatch submitted alone costs what the host waits for: the host's clock
                   // around submit and wait. One after another, the device's time for each.
                   dispatch("dispatch_alone", Kind::kDispatchAlone, Timer::kHostClock),
                   dispatch("dispatch_dependent", Kind::kDispatchDependent, Timer::kTimestamps),
                   read_dispatch(8),
                   read_dispatch(2),
                   read_dispatch(1),
                   transfer("upload_uncached", Kind::kUpload, Memory::kHostUncached),
                   transfer("upload_cached", Kind::kUpload, Memory::kHostCached),
                   transfer("download_uncached", Kind::kDownload, Memory::kHostUncached),
                   transfer("download_cached", Kind::kDownload, Memory::kHostCached),
                   on_chip("fused6_shuffle12", {32, 8})},
      // No --domain or --workgroup: a ceiling is measured at the sizes every device's baseline has.
      .takes_overrides = false,
      .make = Make};
  return family;
}

const Declaration kDeclared = Declare("ceiling", &Descriptor);

}  // namespace
}  // namespace csbench::ceiling
