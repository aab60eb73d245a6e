// The CUDA peers' benchmarks: reduction/cub_peer/domain<W>x<H>, timed by CUDA events in the
// same way the Vulkan variants are timed by timestamps (back-to-back launches, cold inputs
// rotated through 256 MiB, one iteration = one reduction), checked against the CPU reference;
// and run_simulation/cuda_peer/... and run_simulation/cuda_fused6_shuffle12/... (the twin of the
// Vulkan variant fused6_shuffle12) at the Gray-Scott family's runs. The peers of a family are its
// variants without workgroups, named as the family they are the peers of, and declared as "cuda_peer".
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/cuda/peer.hpp"
#include "bench/cuda_peer.hpp"
#include "bench/grayscott.hpp"
#include "bench/reduction.hpp"
#include "harness/base/error.hpp"
#include "harness/family/family.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/context.hpp"
#include "kernels/reduction/reference.hpp"

namespace csbench::cuda_peer {

// The fused peer's kernel is compiled in one shape (kFusedShape): its twin row must have that
// shape's cells and steps, and the shape's block among its workgroups (the row may list others:
// the peer is measured against the twin at the block it is compiled for). The family's test
// checks the twin on the row's test domains, several tiles a side among them.
std::optional<std::string> TwinMismatch(const std::vector<grayscott::Variant>& table) {
  const FusedShape& shape = kFusedShape;
  const auto twin = std::ranges::find(table, kTwin, &grayscott::Variant::name);
  const Extent block{shape.block_x, shape.block_y};
  if (twin != table.end() && twin->cells == Extent{shape.cell_columns, shape.cell_rows} &&
      twin->steps == shape.steps && std::ranges::find(twin->workgroups, block) != twin->workgroups.end()) {
    return std::nullopt;
  }
  return fmt::format("cuda_fused6_shuffle12 compiles in {}'s shape ({}x{} cells a thread, {} steps, blocks of {}x{}), "
                     "which the Gray-Scott variant table no longer has",
                     kTwin, shape.cell_columns, shape.cell_rows, shape.steps, shape.block_x, shape.block_y);
}

namespace {

// A peer is a variant of the family it is the peer of, without workgroups (CUDA picks its own).
struct Variant {
  std::string name;
  std::vector<Extent> workgroups;
  GrayScottKernel grayscott = GrayScottKernel::kStep;  // a Gray-Scott peer's kernel
  std::vector<Extent> test_domains;                    // the family's test's, where not the family's
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
              suite.context != nullptr
                  ? ColdCopies(*suite.context, image_->size() * sizeof(float), suite.options.cache)
                  : RotationCopies(image_->size() * sizeof(float), kRooflineBytes, suite.options.cache)) {}

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
        state, suite_->context, [&](uint32_t count, uint32_t) { return peer_.Time(count); }, 8, 1,
        {.elements = pixels_, .bytes = pixels_ * 16 + 4, .read_only = true});
  }

 private:
  Suite* suite_;
  std::string name_;
  double pixels_;
  const std::vector<float>* image_;
  LuminanceSum peer_;
};

GrayScott MakeGrayScott(const grayscott::State& initial, GrayScottKernel kernel) {
  using namespace grayscott;
  const Layout& l = initial.layout;
  return GrayScott({kFeedRate, kKillRate, kDiffusionU, kDiffusionV, kTimeStep, kCornerWeight, kEdgeWeight},
                   {l.width, l.height, l.stride, l.lead, l.plane}, initial.u.data(), initial.v.data(), kernel);
}

// A CUDA Gray-Scott kernel on one run's domain, checked as the Vulkan variants are: on their check
// domain (a point of the family's test: on its own), its output state poisoned first.
class GrayScottCase : public Case {
 public:
  GrayScottCase(Suite& suite, const Variant& variant, const Point& point)
      : suite_(&suite),
        variant_(variant),
        run_{.domain = point.domain,
             .total = static_cast<uint32_t>(point.Number("total")),
             .image = static_cast<uint32_t>(point.Number("image"))},
        check_domain_(point.test ? point.domain : grayscott::kCheckDomain),
        cells_(point.domain.Count()),
        name_(point.name),
        peer_(MakeGrayScott(
            grayscott::InitialState(run_.domain.x, run_.domain.y,
                                    grayscott::CentralRegion(run_.domain.x, run_.domain.y), grayscott::kSeed),
            variant.grayscott)) {}

  Comparison Check() override {
    using namespace grayscott;
    const Extent d = check_domain_;
    const State initial = InitialState(d.x, d.y, {0, 0, d.x, d.y}, kSeed);
    GrayScott check = MakeGrayScott(initial, variant_.grayscott);
    check.Reset(/*poison=*/true);
    check.Run(kCheckSteps);
    State got = initial;
    check.Download(got.u.data(), got.v.data());
    Comparison c = CompareWithReference(initial, got, kCheckSteps);
    if (!c.passed) c.message = variant_.name + ": " + c.message;
    return c;
  }

  void Measure(benchmark::State& state) override {
    // The Vulkan variants' strategy (Simulation::MeasureCompute) over the peer's CUDA events.
    // Without roofline%, as the stored baselines' entries of cuda_peer were measured (compare.py
    // reports a rate counter that one side has and the other lacks); its fused twin alike, so that
    // the peers report the same counters.
    MeasureTimedRuns(
        state, suite_->context, [&] { peer_.Reset(); }, [&] { return peer_.Run(run_.total); },
        {.elements = cells_ * run_.total,
         .bytes = grayscott::kBytesPerCellStep * cells_ * run_.total,
         .roofline = false},
        "gpu clock");
  }

 private:
  Suite* suite_;
  Variant variant_;
  grayscott::Schedule run_;
  Extent check_domain_;
  double cells_;
  std::string name_;
  GrayScott peer_;
};


// reduction/cub_peer/domain<W>x<H> at the reduction family's domains. It registers first, and
// puts the CUDA device and toolkit of both peers in the run's context.
const Family<Variant>& ReductionPeer() {
  static const Family<Variant> family{
      .name = "reduction",
      .variants = {{.name = "cub_peer"}},
      .domains = reduction::Descriptor().domains,
      .test_domains = reduction::Descriptor().test_domains,
      .one_dimensional = false,
      .takes_overrides = false,
      .timer = [](const Point&) { return Timer::kPeerDevice; },
      .context_lines = [](const Context&) -> std::vector<std::pair<std::string, std::string>> {
        return {{"cuda_peer", ToolkitAndDevice()}};
      },
      .make = MakePeer<ReductionCase>};
  return family;
}

// run_simulation/{cuda_peer,cuda_fused6_shuffle12}/domain<W>x<H>/total<N>/image<M>/compute at the
// Gray-Scott family's runs: its domains and run lengths, in mode compute. Throws (Error) where the
// fused peer no longer matches its twin: registration then skips the family and says why.
const Family<Variant>& GrayScottPeer() {
  static const Family<Variant> family = [] {
    const Family<grayscott::Variant>& vulkan = grayscott::Descriptor();
    if (const std::optional<std::string> mismatch = TwinMismatch(vulkan.variants)) throw Error(*mismatch);
    std::vector<Axis> axes = vulkan.axes;
    // Mode compute alone, found by its value: the family's modes run host-clocked first.
    std::vector<AxisValue>& modes = axes.back().values;
    std::erase_if(modes, [](const AxisValue& m) { return m.text() != grayscott::ToString(grayscott::Mode::kCompute); });
    Require(modes.size() == 1, "the Gray-Scott family has no compute mode for its CUDA peer");
    const auto twin = std::ranges::find(vulkan.variants, kTwin, &grayscott::Variant::name);
    return Family<Variant>{.name = vulkan.name,
                           .variants = {{.name = "cuda_peer"},
                                        {.name = "cuda_fused6_shuffle12",
                                         .grayscott = GrayScottKernel::kFused6Shuffle12,
                                         .test_domains = twin->test_domains}},
                           .domains = vulkan.domains,
                           .test_domains = {grayscott::kCheckDomain},
                           .one_dimensional = false,
                           .takes_overrides = false,
                           .axes = std::move(axes),
                           .timer = [](const Point&) { return Timer::kPeerDevice; },
                           .unit = benchmark::kMillisecond,
                           .make = MakePeer<GrayScottCase>,
                           // The short run, as the Vulkan variants'.
                           .gpu_leaves_out = vulkan.gpu_leaves_out};
  }();
  return family;
}

// The peers' two families, each skipped on its own where it cannot be described (a peer that no
// longer matches its twin leaves the CUB peer running). Named in a skip as the benchmarks are.
constexpr const char* kReductionPeers = "reduction/cub_peer";
constexpr const char* kGrayScottPeers = "run_simulation/cuda_peer, run_simulation/cuda_fused6_shuffle12";

// Whether the run's selection takes any of the peers' benchmarks. Asking CUDA whether it has a
// device starts its driver: a run's registration took 0.11 s on an H100, where lavapipe's took
// 7 ms (docs/perf-notes.md, section 30). A run that selects no peer (a manifest's, a filter's)
// does not pay it.
bool SelectsAPeer(const Suite& suite) {
  const RunDevice device = RunDeviceOf(suite.context);
  const auto taken = [&](const auto& family) {
    return std::ranges::any_of(OfferedBy(family, suite.options, device),
                               [](const Offered& o) { return SelectionTakes(o.name); });
  };
  try {
    return taken(ReductionPeer()) || taken(GrayScottPeer());
  } catch (const std::exception&) {
    return true;  // a peer that cannot be described: the registration below says why, as before
  }
}

void Register(Suite& suite) {
  if (suite.options.backend == Backend::kPlainLoop || !SelectsAPeer(suite)) return;
  std::string why;
  if (!DeviceAvailable(why)) {
    fmt::print(stderr, "csbench: CUDA peers built but not run: {}\n", why);
    return;
  }
  RegisterGuarded(kReductionPeers, [&] { RegisterFamily(suite, ReductionPeer()); });
  RegisterGuarded(kGrayScottPeers, [&] { RegisterFamily(suite, GrayScottPeer()); });
}

std::vector<TestPoint> PeerTestPoints() {
  std::vector<TestPoint> points = TestPoints(ReductionPeer());
  for (TestPoint& p : TestPoints(GrayScottPeer())) points.push_back(std::move(p));
  return points;
}

// What Register registers: nothing without a Vulkan device or a CUDA one.
std::vector<Offered> PeersOffered(const Options& options, const RunDevice& device) {
  std::string why;
  if (device.kind == DeviceKind::kNone || !DeviceAvailable(why)) return {};
  std::vector<Offered> offered;
  Guarded(kReductionPeers, [&] { offered = OfferedBy(ReductionPeer(), options, device); });
  Guarded(kGrayScottPeers, [&] {
    for (Offered& o : OfferedBy(GrayScottPeer(), options, device)) offered.push_back(std::move(o));
  });
  return offered;
}

const Declaration kDeclared("cuda_peer", Register, PeerTestPoints, PeersOffered);

}  // namespace
}  // namespace csbench::cuda_peer
