// The CUDA peers' benchmarks: reduction/cub_peer/domain<W>x<H>, timed by CUDA events in the
// same way the Vulkan variants are timed by timestamps (back-to-back launches, cold inputs
// rotated through 256 MiB, one iteration = one reduction), checked against the CPU reference.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>

#include "bench/cuda/peer.hpp"
#include "bench/grayscott.hpp"
#include "bench/reduction.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/roofline.hpp"
#include "kernels/reduction/reference.hpp"

namespace csbench::cuda_peer {
namespace {

void ReductionPeer(benchmark::State& state, Suite& suite, Extent domain, const std::string& name) {
  RunGuarded(state, [&] {
    const auto& image = suite.Shared<reduction::Inputs>("reduction").Image(domain);
    const double pixels = static_cast<double>(domain.x) * domain.y;
    LuminanceSum peer(image.data(), image.size(), RotationCopies(image.size() * sizeof(float), RotatingInput::kBudgetBytes,
                                            suite.options.cache));
    const double want = reduction::TotalLuminance(image);
    const double got = peer.Run();
    const double error = std::abs(got - want) / want;
    Require(error <= reduction::kTolerance,
            fmt::format("cub_peer: sum {} vs reference {}: relative error {:.3g}", got, want, error));
    peer.Time(8);  // warm-up
    const uint32_t batch = StableBatchSize(name, peer.Time(8) / 8, 1);
    while (state.KeepRunningBatch(batch)) state.SetIterationTime(peer.Time(batch));
    state.counters["dispatches/sample"] = batch;
    const Work work{.elements = pixels, .bytes = pixels * 16 + 4};
    SetThroughput(state, work);
    if (suite.context != nullptr) SetRooflinePercent(state, work, MeasuredRoofline(*suite.context).best_gbs());
  });
}

GrayScott MakeGrayScott(const grayscott::State& initial) {
  using namespace grayscott;
  const Layout& l = initial.layout;
  return GrayScott({kFeedRate, kKillRate, kDiffusionU, kDiffusionV, kTimeStep, kCornerWeight, kEdgeWeight},
                   {l.width, l.height, l.stride, l.lead, l.plane}, initial.u.data(), initial.v.data());
}

void GrayScottPeer(benchmark::State& state, const grayscott::Schedule& run) {
  RunGuarded(state, [&] {
    using namespace grayscott;
    {
      const State initial = InitialState(kCheckDomain.x, kCheckDomain.y, {0, 0, kCheckDomain.x, kCheckDomain.y}, kSeed);
      GrayScott check = MakeGrayScott(initial);
      check.Run(kCheckSteps);
      State got = initial;
      check.Download(got.u.data(), got.v.data());
      Comparison c = CompareWithReference(initial, got, kCheckSteps);
      Require(c.passed, "cuda_peer: " + c.message);
    }
    const State initial = InitialState(run.domain.x, run.domain.y, CentralRegion(run.domain.x, run.domain.y), kSeed);
    GrayScott peer = MakeGrayScott(initial);
    peer.Run(run.total);  // warm-up
    for (auto _ : state) {
      peer.Reset();
      state.SetIterationTime(peer.Run(run.total));
    }
    const double cells = static_cast<double>(initial.layout.cells());
    SetThroughput(state, {.elements = cells * run.total, .bytes = kBytesPerCellStep * cells * run.total});
    state.SetLabel("gpu clock");
  });
}

}  // namespace

void Register(Suite& suite) {
  if (suite.options.backend == Backend::kPlainLoop) return;
  std::string why;
  if (!DeviceAvailable(why)) {
    fmt::print(stderr, "csbench: CUDA peers built but not run: {}\n", why);
    return;
  }
  benchmark::AddCustomContext("cuda_peer", Describe());
  for (const Extent& domain : reduction::Domains()) {
    std::string name = Name({"reduction", "cub_peer", Sized("domain", domain)});
    benchmark::RegisterBenchmark(name.c_str(),
                                 [&suite, domain, name](benchmark::State& s) { ReductionPeer(s, suite, domain, name); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  for (const grayscott::Schedule& run : grayscott::Schedules()) {
    std::string name = Name({"run_simulation", "cuda_peer", Sized("domain", run.domain), fmt::format("total{}", run.total),
                             fmt::format("image{}", run.image), "compute"});
    benchmark::RegisterBenchmark(name.c_str(), [run](benchmark::State& s) { GrayScottPeer(s, run); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace csbench::cuda_peer
