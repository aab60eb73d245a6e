// The CUDA peers' benchmarks: reduction/cub_peer/domain<W>x<H>, timed by CUDA events in the
// same way the Vulkan variants are timed by timestamps (back-to-back launches, cold inputs
// rotated through 256 MiB, one iteration = one reduction), checked against the CPU reference.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/cuda/peer.hpp"
#include "bench/grayscott.hpp"
#include "bench/reduction.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/points.hpp"
#include "harness/roofline.hpp"
#include "kernels/reduction/reference.hpp"

namespace csbench::cuda_peer {
namespace {

// The CUB luminance sum of one domain's image, checked against the CPU reference.
class ReductionCase {
 public:
  ReductionCase(Suite& suite, Extent domain, std::string name)
      : suite_(&suite),
        name_(std::move(name)),
        pixels_(static_cast<double>(domain.x) * domain.y),
        image_(&suite.Shared<reduction::Inputs>("reduction").Image(domain)),
        peer_(image_->data(), image_->size(),
              RotationCopies(image_->size() * sizeof(float), RotatingInput::kBudgetBytes, suite.options.cache)) {}

  Comparison Check() {
    const double want = reduction::TotalLuminance(*image_);
    const double got = peer_.Run();
    Comparison c;
    c.max_relative_error = std::abs(got - want) / want;
    c.passed = c.max_relative_error <= reduction::kTolerance;
    if (!c.passed) {
      c.message = fmt::format("cub_peer: sum {} vs reference {}: relative error {:.3g}", got, want, c.max_relative_error);
    }
    return c;
  }

  void Measure(benchmark::State& state) {
    peer_.Time(8);
    const uint32_t batch = StableBatchSize(name_, peer_.Time(8) / 8, 1);
    // The same warm-up as the Vulkan variants (MeasureDispatches).
    WarmUp(suite_->context, [&] { return peer_.Time(batch); });
    while (state.KeepRunningBatch(batch)) state.SetIterationTime(peer_.Time(batch));
    NoteDeviceBusy();
    state.counters["dispatches/sample"] = batch;
    const Work work{.elements = pixels_, .bytes = pixels_ * 16 + 4, .read_only = true};
    SetThroughput(state, work);
    if (suite_->context != nullptr) SetRooflinePercent(state, work, *suite_->context);
  }

 private:
  Suite* suite_;
  std::string name_;
  double pixels_;
  const std::vector<float>* image_;
  LuminanceSum peer_;
};

GrayScott MakeGrayScott(const grayscott::State& initial) {
  using namespace grayscott;
  const Layout& l = initial.layout;
  return GrayScott({kFeedRate, kKillRate, kDiffusionU, kDiffusionV, kTimeStep, kCornerWeight, kEdgeWeight},
                   {l.width, l.height, l.stride, l.lead, l.plane}, initial.u.data(), initial.v.data());
}

// The CUDA Gray-Scott step on one schedule's domain, checked on the Vulkan variants' check domain.
class GrayScottCase {
 public:
  GrayScottCase(Suite& suite, const grayscott::Schedule& run)
      : suite_(&suite),
        run_(run),
        cells_(static_cast<double>(run.domain.x) * run.domain.y),
        peer_(MakeGrayScott(grayscott::InitialState(run.domain.x, run.domain.y,
                                                    grayscott::CentralRegion(run.domain.x, run.domain.y),
                                                    grayscott::kSeed))) {}

  Comparison Check() {
    using namespace grayscott;
    const State initial = InitialState(kCheckDomain.x, kCheckDomain.y, {0, 0, kCheckDomain.x, kCheckDomain.y}, kSeed);
    GrayScott check = MakeGrayScott(initial);
    check.Run(kCheckSteps);
    State got = initial;
    check.Download(got.u.data(), got.v.data());
    Comparison c = CompareWithReference(initial, got, kCheckSteps);
    if (!c.passed) c.message = "cuda_peer: " + c.message;
    return c;
  }

  void Measure(benchmark::State& state) {
    // The same warm-up as the Vulkan variants (Simulation::MeasureCompute).
    WarmUp(suite_->context, [&] {
      peer_.Reset();
      return peer_.Run(run_.total);
    });
    for (auto _ : state) {
      peer_.Reset();
      state.SetIterationTime(peer_.Run(run_.total));
    }
    NoteDeviceBusy();
    SetThroughput(state, {.elements = cells_ * run_.total, .bytes = grayscott::kBytesPerCellStep * cells_ * run_.total});
    state.SetLabel("gpu clock");
  }

 private:
  Suite* suite_;
  grayscott::Schedule run_;
  double cells_;
  GrayScott peer_;
};

}  // namespace

void Register(Suite& suite) {
  if (suite.options.backend == Backend::kPlainLoop) return;
  std::string why;
  if (!DeviceAvailable(why)) {
    fmt::print(stderr, "csbench: CUDA peers built but not run: {}\n", why);
    return;
  }
  benchmark::AddCustomContext("cuda_peer", Describe());
  for (const Extent& domain : reduction::Descriptor().domains) {
    std::string name = Name({"reduction", "cub_peer", Sized("domain", domain)});
    // CUDA events time the peers, whatever the Vulkan device's timer.
    Describe(name, {.family = "reduction", .variant = "cub_peer", .clock = Clock::kDevice,
                    .axes = {{"domain", Sized("", domain)}}});
    RegisterGpuCase(name, [&suite, domain, name] { return std::make_unique<ReductionCase>(suite, domain, name); });
  }
  for (const grayscott::Schedule& run : grayscott::Schedules()) {
    std::string name = Name({"run_simulation", "cuda_peer", Sized("domain", run.domain), fmt::format("total{}", run.total),
                             fmt::format("image{}", run.image), "compute"});
    Describe(name, {.family = "run_simulation",
                    .variant = "cuda_peer",
                    .clock = Clock::kDevice,
                    .axes = {{"domain", Sized("", run.domain)},
                             {"total", static_cast<double>(run.total)},
                             {"image", static_cast<double>(run.image)},
                             {"mode", "compute"}}});
    RegisterGpuCase(name, [&suite, run] { return std::make_unique<GrayScottCase>(suite, run); })->Unit(benchmark::kMillisecond);
  }
}

}  // namespace csbench::cuda_peer
