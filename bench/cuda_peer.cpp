// The CUDA peers' benchmarks: reduction/cub_peer/domain<W>x<H>, timed by CUDA events in the
// same way the Vulkan variants are timed by timestamps (back-to-back launches, cold inputs
// rotated through 256 MiB, one iteration = one reduction), checked against the CPU reference;
// and run_simulation/cuda_peer/... at the Gray-Scott family's runs. Each peer is a family of one
// variant without workgroups, named as the family it is the peer of, and declared as "cuda_peer".
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
#include "harness/family.hpp"
#include "harness/measure.hpp"
#include "harness/roofline.hpp"
#include "kernels/reduction/reference.hpp"

namespace csbench::cuda_peer {
namespace {

// A peer is a variant of the family it is the peer of, without workgroups (CUDA picks its own).
struct Variant {
  std::string name;
  std::vector<Extent> workgroups;
};

// A peer's case, made where a CUDA device is (registration asks first; the families' test, which
// makes the cases of every declared family, skips the peers without one).
template <typename C>
std::unique_ptr<Case> MakePeer(Suite& suite, const Variant& variant, const Point& point) {
  std::string why;
  RequireSupport(DeviceAvailable(why), fmt::format("no CUDA device: {}", why));
  return std::make_unique<C>(suite, variant, point);
}

// The CUB luminance sum of one domain's image, checked against the CPU reference.
class ReductionCase : public Case {
 public:
  ReductionCase(Suite& suite, const Variant&, const Point& point)
      : suite_(&suite),
        name_(point.name),
        pixels_(point.domain.Count()),
        image_(&suite.Shared<reduction::Inputs>("reduction").Image(point.domain)),
        peer_(image_->data(), image_->size(),
              RotationCopies(image_->size() * sizeof(float), RotatingInput::kBudgetBytes, suite.options.cache)) {}

  Comparison Check() override {
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

  void Measure(benchmark::State& state) override {
    // The first call of a count captures its graph: a calibration on it would count the capture.
    peer_.Time(8);
    // The Vulkan variants' strategy (MeasureDispatches) over the peer's CUDA events.
    MeasureTimedBatches(
        state, suite_->context, name_, [&](uint32_t count) { return peer_.Time(count); }, 8, 1,
        {.elements = pixels_, .bytes = pixels_ * 16 + 4, .read_only = true});
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

// The CUDA Gray-Scott step on one run's domain, checked on the Vulkan variants' check domain.
class GrayScottCase : public Case {
 public:
  GrayScottCase(Suite& suite, const Variant&, const Point& point)
      : suite_(&suite),
        run_{.domain = point.domain,
             .total = static_cast<uint32_t>(point.Number("total")),
             .image = static_cast<uint32_t>(point.Number("image"))},
        cells_(point.domain.Count()),
        name_(point.name),
        peer_(MakeGrayScott(grayscott::InitialState(run_.domain.x, run_.domain.y,
                                                    grayscott::CentralRegion(run_.domain.x, run_.domain.y),
                                                    grayscott::kSeed))) {}

  Comparison Check() override {
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

  void Measure(benchmark::State& state) override {
    // The Vulkan variants' strategy (Simulation::MeasureCompute) over the peer's CUDA events.
    // Without roofline%, as the stored baselines' entries of this peer were measured: compare.py
    // reports a rate counter that one side has and the other lacks.
    MeasureTimedRuns(
        state, suite_->context, name_, [&] { peer_.Reset(); }, [&] { return peer_.Run(run_.total); },
        {.elements = cells_ * run_.total,
         .bytes = grayscott::kBytesPerCellStep * cells_ * run_.total,
         .roofline = false},
        "gpu clock");
  }

 private:
  Suite* suite_;
  grayscott::Schedule run_;
  double cells_;
  std::string name_;
  GrayScott peer_;
};


// reduction/cub_peer/domain<W>x<H> at the reduction family's domains.
const Family<Variant>& ReductionPeer() {
  static const Family<Variant> family{.name = "reduction",
                                      .variants = {{.name = "cub_peer"}},
                                      .domains = reduction::Descriptor().domains,
                                      .test_domains = reduction::Descriptor().test_domains,
                                      .one_dimensional = false,
                                      .takes_overrides = false,
                                      .timer = [](const Point&) { return Timer::kPeerDevice; },
                                      .make = MakePeer<ReductionCase>};
  return family;
}

// run_simulation/cuda_peer/domain<W>x<H>/total<N>/image<M>/compute at the Gray-Scott family's
// runs: its domains and run lengths, in mode compute.
const Family<Variant>& GrayScottPeer() {
  static const Family<Variant> family = [] {
    const Family<grayscott::Variant>& vulkan = grayscott::Descriptor();
    std::vector<Axis> axes = vulkan.axes;
    // Mode compute alone, found by its value: the family's modes run host-clocked first.
    std::vector<AxisValue>& modes = axes.back().values;
    std::erase_if(modes, [](const AxisValue& m) { return m.text() != grayscott::ToString(grayscott::Mode::kCompute); });
    Require(modes.size() == 1, "the Gray-Scott family has no compute mode for its CUDA peer");
    return Family<Variant>{.name = vulkan.name,
                           .variants = {{.name = "cuda_peer"}},
                           .domains = vulkan.domains,
                           .test_domains = {grayscott::kCheckDomain},
                           .one_dimensional = false,
                           .takes_overrides = false,
                           .axes = std::move(axes),
                           .timer = [](const Point&) { return Timer::kPeerDevice; },
                           .unit = benchmark::kMillisecond,
                           .make = MakePeer<GrayScottCase>};
  }();
  return family;
}

void Register(Suite& suite) {
  if (suite.options.backend == Backend::kPlainLoop) return;
  std::string why;
  if (!DeviceAvailable(why)) {
    fmt::print(stderr, "csbench: CUDA peers built but not run: {}\n", why);
    return;
  }
  benchmark::AddCustomContext("cuda_peer", Describe());
  RegisterFamily(suite, ReductionPeer());
  RegisterFamily(suite, GrayScottPeer());
}

std::vector<TestPoint> PeerTestPoints() {
  std::vector<TestPoint> points = TestPoints(ReductionPeer());
  for (TestPoint& p : TestPoints(GrayScottPeer())) points.push_back(std::move(p));
  return points;
}

const Declaration kDeclared("cuda_peer", Register, PeerTestPoints);

}  // namespace
}  // namespace csbench::cuda_peer
