#include "bench/grayscott.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/family/family.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/pipeline_stats.hpp"
#include "harness/vulkan/pipelined.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench::grayscott {
namespace {

struct Push {
  uint32_t width;
  uint32_t height;
  uint32_t stride;
  uint32_t lead;
  uint32_t steps;  // this dispatch's steps: 1, or up to Variant::steps for a fused variant
  uint32_t group_mask = ~0u;  // the workgroup ID's bits a tile is taken from (fused_shuffle.comp)
};

// Specialization constants 3..9 of common.glsl, from the reference's single definition.
std::vector<uint32_t> ParameterConstants() {
  return {std::bit_cast<uint32_t>(kFeedRate),   std::bit_cast<uint32_t>(kKillRate),
          std::bit_cast<uint32_t>(kDiffusionU), std::bit_cast<uint32_t>(kDiffusionV),
          std::bit_cast<uint32_t>(kTimeStep),   std::bit_cast<uint32_t>(kCornerWeight),
          std::bit_cast<uint32_t>(kEdgeWeight)};
}

// Output cells of one workgroup.
Extent TileOf(const Variant& variant, Extent workgroup) {
  if (variant.steps > 1) {
    return {workgroup.x * variant.cells.x - 2 * variant.steps, workgroup.y * variant.cells.y - 2 * variant.steps};
  }
  return {(workgroup.x - 2 * variant.border) * variant.cells.x, (workgroup.y - 2 * variant.border) * variant.cells.y};
}

// What the family's benchmarks share: the initial state of the latest domain (registration is
// run-major, so an 8192x8192 state, half a gigabyte, is made once and the previous domain's is
// freed first), and each variant and workgroup's check. The check runs the kernel a benchmark
// times (the same source, defines and local size; the domain is a push constant) on the check
// domain, so one check per variant and workgroup covers its every domain and mode; a point of
// the family's test checks its own (small) domain.
class FamilyState {
 public:
  // The initial state of `domain`, made once a run: the benchmarks go domain by domain within
  // each variant and workgroup, and keeping only the latest made the 8192x8192 one (512 MiB of
  // host memory) again for every variant and workgroup.
  const State& For(Extent domain) {
    std::lock_guard lock(states_lock_);
    std::unique_ptr<State>& state = states_[{domain.x, domain.y}];
    if (!state) state = std::make_unique<State>(InitialState(domain.x, domain.y, CentralRegion(domain.x, domain.y), kSeed));
    return *state;
  }

  const Comparison& CheckOf(Context& context, const Variant& variant, Extent workgroup, Extent domain) {
    const std::string key = Name({variant.name, Sized("workgroup", workgroup), Sized("domain", domain)});
    auto it = checks_.find(key);
    if (it == checks_.end()) it = checks_.emplace(key, Check(context, variant, workgroup, domain)).first;
    return it->second;
  }

  // The simulation of `variant` at `workgroup` on `domain`, shared by the benchmarks of its three
  // modes (one after another in a run): each mode made its own before, and making one at
  // 8192x8192 (1.5 GiB of states, 512 MiB uploaded, a pipeline) cost as much as measuring it.
  // The latest is kept here until another is asked for (or the family's state goes).
  std::shared_ptr<Simulation> SimulationFor(Context& context, const Variant& variant, Extent workgroup, Extent domain) {
    const std::string key = Name({variant.name, Sized("workgroup", workgroup), Sized("domain", domain)});
    std::lock_guard lock(simulation_lock_);
    if (simulation_ != nullptr && simulation_key_ == key) return simulation_;
    simulation_.reset();  // before the next is made: the latest two at most are alive
    simulation_key_.clear();
    simulation_ = std::make_shared<Simulation>(context, variant, workgroup, For(domain),
                                               [this, &context](uint64_t bytes) { return SlotsFor(context, bytes); });
    simulation_key_ = key;
    return simulation_;
  }
  // Host-visible slots of `bytes` for the download modes, kept for the run: a simulation made its
  // own (768 MiB at 8192x8192, pinned by the driver as it is allocated) for each variant and
  // workgroup. Only one simulation runs its images at a time.
  std::shared_ptr<Buffer> SlotsFor(Context& context, uint64_t bytes) {
    std::lock_guard lock(simulation_lock_);
    std::shared_ptr<Buffer>& slots = slots_[bytes];
    if (!slots) slots = std::make_shared<Buffer>(context, bytes, Memory::kHost);
    return slots;
  }

  // Lets `simulation` go with the last case that holds it (the last mode's).
  void Forget(const Simulation* simulation) {
    std::lock_guard lock(simulation_lock_);
    if (simulation_.get() != simulation) return;
    simulation_.reset();
    simulation_key_.clear();
  }

 private:
  std::mutex states_lock_;
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<State>> states_;
  std::map<std::string, Comparison> checks_;
  std::mutex simulation_lock_;  // cases may be made on the thread ahead (harness/measure/measure.hpp)
  std::map<uint64_t, std::shared_ptr<Buffer>> slots_;
  std::shared_ptr<Simulation> simulation_;
  std::string simulation_key_;
};

FamilyState& Shared(Suite& suite) { return suite.Shared<FamilyState>("grayscott"); }

Mode ModeNamed(std::string_view name) {
  for (Mode mode : kModes) {
    if (ToString(mode) == name) return mode;
  }
  throw Error(fmt::format("no Gray-Scott mode {}", name));
}

// The workgroup a point runs at. A subgroup-row variant's table holds NVIDIA's subgroup size as
// its x; the family's test runs its rows at the test device's size (8 on lavapipe), so that every
// device checks the kernel. A benchmark runs the table's, and a device of another size skips it.
Extent RunAt(Context& context, const Variant& variant, const Point& point) {
  const DeviceInfo& info = context.info();
  if (point.test && variant.subgroup_rows && info.min_subgroup_size == info.max_subgroup_size) {
    return {info.subgroup_size, point.workgroup.y};
  }
  return point.workgroup;
}

// One benchmark: the variant's simulation of the domain, in one mode.
class GpuCase : public Case {
 public:
  GpuCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context),
        shared_(&Shared(suite)),
        variant_(&variant),
        workgroup_(RunAt(*context_, variant, point)),
        run_{.domain = point.domain,
             .total = static_cast<uint32_t>(point.Number("total")),
             .image = static_cast<uint32_t>(point.Number("image"))},
        mode_(ModeNamed(point.Text("mode"))),
        check_domain_(point.test ? point.domain : kCheckDomain),
        name_(point.name),
        simulation_(shared_->SimulationFor(*context_, variant, workgroup_, run_.domain)) {}

  ~GpuCase() override {
    // The modes run in kModes' order: after the last, nothing asks for this simulation again.
    if (mode_ == std::end(kModes)[-1]) shared_->Forget(simulation_.get());
  }

  Comparison Check() override { return shared_->CheckOf(*context_, *variant_, workgroup_, check_domain_); }

  void Measure(benchmark::State& state) override {
    if (mode_ == Mode::kCompute) {
      simulation_->MeasureCompute(state, run_.total);
    } else {
      simulation_->MeasureImages(state, run_.total, run_.image, mode_ == Mode::kComputeDownloadSum);
    }
  }

 private:
  Context* context_;
  FamilyState* shared_;
  const Variant* variant_;
  Extent workgroup_;
  Schedule run_;
  Mode mode_;
  Extent check_domain_;
  std::string name_;
  std::shared_ptr<Simulation> simulation_;
};

// The host's loop: the same steps as the GPU's, from the same initial state.
void RegisterPlainLoop(Suite& suite, const Point& point) {
  FamilyState& shared = Shared(suite);
  const Schedule run{.domain = point.domain,
                     .total = static_cast<uint32_t>(point.Number("total")),
                     .image = static_cast<uint32_t>(point.Number("image"))};
  AddPlainLoop(point.name, [&shared, run](benchmark::State& state) {
    const State& initial = shared.For(run.domain);
    State simulation = initial;
    State scratch = initial;
    const double cells = static_cast<double>(initial.layout.cells());
    MeasurePlainLoop(
        state,
        [&] {
          Simulate(simulation, scratch, run.total);
          benchmark::DoNotOptimize(simulation.v.data());
        },
        {.elements = cells * run.total, .bytes = kBytesPerCellStep * cells * run.total},
        [&] {
          simulation.u = initial.u;
          simulation.v = initial.v;
        });
  });
}

// The check on a CPU device: lavapipe allows 32 KiB of shared memory a workgroup. A fused variant
// whose table holds only larger tiles is also checked by the family's test at the tallest 64-wide
// workgroup within it, so that such a device runs its step count and rows too (a GPU runs the
// table's workgroups).
std::vector<Extent> SmallDeviceWorkgroups(const Variant& variant) {
  constexpr uint32_t kSmallDeviceShared = 32768;
  const bool all_large = std::ranges::all_of(
      variant.workgroups, [&](Extent wg) { return SharedBytes(variant, wg) > kSmallDeviceShared; });
  if (variant.steps <= 1 || !all_large) return {};
  Extent small{64, 1};
  while (SharedBytes(variant, {64, small.y + 1}) <= kSmallDeviceShared) ++small.y;
  return {small};
}

const Declaration kDeclared = Declare("run_simulation", &Descriptor);

}  // namespace

const Variant& VariantNamed(std::string_view name) {
  const std::vector<Variant>& table = Variants();
  const auto it = std::ranges::find(table, name, &Variant::name);
  Require(it != table.end(), fmt::format("no Gray-Scott variant {}", name));
  return *it;
}

namespace {

// The short run (Schedules()' last: 1024x512, 32 steps, an image every 4), the one a CPU device's
// default set runs, in `modes` (none: every mode) at `workgroups` (none: every workgroup).
Pick ShortRun(std::vector<Mode> modes, std::vector<Extent> workgroups = {}) {
  const Schedule& run = Schedules().back();
  Pick pick{.workgroups = std::move(workgroups),
            .domains = {run.domain},
            .axes = {{"total", run.total}, {"image", run.image}}};
  for (Mode mode : modes) pick.axes.push_back({"mode", ToString(mode)});
  return pick;
}

}  // namespace

namespace {

// The subgroup-row kernel's knobs as a space for `bench --tune` (docs/tuning.md): steps a pass 2,
// 4 or 6, rows a work-item 4, 6, 8, 12 or 16, subgroups a workgroup 4, 8, 12 or 16, where the
// tile's output rows are at least twice its ring. Not 8 steps: a tile is two columns a lane of one
// subgroup, 16 on a device of 8-wide subgroups (lavapipe, where the family's test runs), and 8
// steps' ring takes all 16; where subgroups are 32 wide, 8 steps rank below 6 at every shape
// (docs/perf-notes.md, section 16). The table's four rows keep their names and workgroups; every
// point they did not have is new and out of a GPU's default set (a filter names them), so the
// stored baselines' entries stay as they were.
void AddShuffleSpace(std::vector<Variant>& variants) {
  for (uint32_t steps : {2u, 4u, 6u}) {
    for (uint32_t rows : {4u, 6u, 8u, 12u, 16u}) {
      const std::string name = fmt::format("fused{}_shuffle{}", steps, rows);
      auto row = std::find_if(variants.begin(), variants.end(), [&](const Variant& v) { return v.name == name; });
      if (row == variants.end()) {
        row = variants.insert(variants.end(), Variant{.name = name,
                                                      .source = "grayscott/fused_shuffle.comp",
                                                      .cells = {2, rows},
                                                      .steps = steps,
                                                      .subgroup_rows = true});
      }
      Pick added;
      for (uint32_t groups : {4u, 8u, 12u, 16u}) {
        const Extent wg{32, groups};
        if (groups * rows < 4 * steps) continue;
        if (std::find(row->workgroups.begin(), row->workgroups.end(), wg) != row->workgroups.end()) continue;
        row->workgroups.push_back(wg);
        added.workgroups.push_back(wg);
      }
      if (!added.workgroups.empty()) row->gpu_leaves_out.push_back(added);
    }
  }
}

}  // namespace

const std::vector<Variant>& Variants() {
  // The chapter's workgroups, for every variant: the names stay comparable across variants. The
  // strip variants also run wide, flat groups (64x8, 128x4), where a GPU runs them fastest: a wider
  // row touches more contiguous bytes (docs/perf-notes.md, "At the hardware limit").
  const std::vector<Extent> workgroups = {{8, 8}, {16, 8}, {16, 16}, {32, 16}, {32, 32}};
  std::vector<Extent> strip_workgroups = workgroups;
  strip_workgroups.insert(strip_workgroups.end(), {{64, 8}, {128, 4}});
  // A CPU device's default set runs the short run (Schedules()) in mode compute: the chapter's
  // kernels at its workgroups, global and shared_aos at each (the trend of the shared-memory
  // regression), shared_soa, a strip and the smallest fused variant at one, and at 32x16 the
  // download modes of global (with the host's sum) and of a strip.
  static const std::vector<Variant> variants = [&] {
    std::vector<Variant> table = {
      {.name = "global", .source = "grayscott/global.comp", .workgroups = workgroups,
       .cpu_default = {ShortRun({Mode::kCompute}), ShortRun({Mode::kComputeDownloadSum}, {{32, 16}})}},
      {.name = "shared_aos", .source = "grayscott/shared.comp", .border = 1, .workgroups = workgroups,
       .cpu_default = {ShortRun({Mode::kCompute})}},
      {.name = "shared_soa", .source = "grayscott/shared.comp", .defines = {{"SOA", "1"}}, .border = 1,
       .workgroups = workgroups, .cpu_default = {ShortRun({Mode::kCompute}, {{32, 16}})}},
      {.name = "strip1x8", .source = "grayscott/strip.comp", .cells = {1, 8}, .workgroups = workgroups},
      {.name = "strip4x8", .source = "grayscott/strip.comp", .cells = {4, 8}, .workgroups = strip_workgroups},
      // Half the rows per work-item: twice the work-items in flight, so more memory-level
      // parallelism on a GPU (docs/perf-notes.md, "At the hardware limit", has the rooflines).
      {.name = "strip4x4", .source = "grayscott/strip.comp", .cells = {4, 4}, .workgroups = strip_workgroups,
       .cpu_default = {ShortRun({Mode::kCompute, Mode::kComputeDownload}, {{32, 16}})}},
      // Several steps per dispatch: a tile of workgroup.x x (workgroup.y * 8) cells stays on chip
      // for up to k steps and writes all but its k-cell ring (docs/perf-notes.md has why these
      // shapes). Tiles are at most 3072 cells: two (U, V) buffers in 48 KiB, NVIDIA's Vulkan limit.
      {.name = "fused2", .source = "grayscott/fused.comp", .cells = {1, 8}, .steps = 2,
       .workgroups = {{32, 4}, {32, 8}, {64, 4}, {64, 6}}, .cpu_default = {ShortRun({Mode::kCompute}, {{32, 4}})}},
      {.name = "fused4", .source = "grayscott/fused.comp", .cells = {1, 8}, .steps = 4,
       .workgroups = {{32, 8}, {64, 4}, {64, 6}, {32, 12}}},
      {.name = "fused8", .source = "grayscott/fused.comp", .cells = {1, 8}, .steps = 8,
       .workgroups = {{32, 8}, {64, 6}}},
      // 16 rows per work-item and one shared buffer (a second barrier per step): tiles of up to
      // 64x96 cells in 48 KiB, less of each spent on the halo.
      {.name = "fused2_rows16", .source = "grayscott/fused.comp", .defines = {{"SINGLE_BUFFER", "1"}},
       .cells = {1, 16}, .steps = 2, .workgroups = {{64, 4}, {64, 6}}},
      // 64x5: 320 work-items at 95 registers, so that two groups fit an SM's registers (64x6 fits one);
      // but NVIDIA's driver gives an SM about 64 KiB of shared memory, so its 40 KiB tile runs alone.
      {.name = "fused4_rows16", .source = "grayscott/fused.comp", .defines = {{"SINGLE_BUFFER", "1"}},
       .cells = {1, 16}, .steps = 4, .workgroups = {{64, 4}, {64, 5}, {64, 6}}},
      // 12 rows: fewer registers a work-item than rows16, so more warps an SM, for a smaller tile.
      {.name = "fused4_rows12", .source = "grayscott/fused.comp", .defines = {{"SINGLE_BUFFER", "1"}},
       .cells = {1, 12}, .steps = 4, .workgroups = {{64, 5}, {64, 6}, {64, 8}}},
      // Six steps on rows12's 64x96 tile: a tile's loads and stores cost about 2.8 steps (one group
      // an SM, nothing hides them), so more steps per tile pay until the ring (12 cells of 64) eats
      // the gain (docs/perf-notes.md, "Several steps per pass (4)").
      {.name = "fused6_rows12", .source = "grayscott/fused.comp", .defines = {{"SINGLE_BUFFER", "1"}},
       .cells = {1, 12}, .steps = 6, .workgroups = {{64, 8}}},
      // Two columns a work-item and a subgroup a workgroup row: the left and right neighbours come
      // from the next lanes by shuffles, and only each strip's end rows go through shared memory
      // (16 KiB for a 64x96 tile at 32x8, not 48), so a small shared-memory carve-out still holds
      // several tiles an SM. Workgroup x is the subgroup size: the table holds NVIDIA's 32, and a
      // device with another size skips these and says why (docs/perf-notes.md, "Several steps per
      // pass (5)"; the family test runs them at the test device's size).
      // The step count must be even (a work-item's pair of cells then starts at an even column,
      // one aligned 8-byte load). On the H200, 256 work-items of 12 rows (117 registers, 16 KiB)
      // or 384 of 8 (80 registers, 24 KiB) fit two groups an SM; 512 of 6 rows (32 KiB) fit one,
      // which makes fused6_shuffle6 the control for what the second group brings.
      {.name = "fused4_shuffle12", .source = "grayscott/fused_shuffle.comp", .cells = {2, 12}, .steps = 4,
       .subgroup_rows = true, .workgroups = {{32, 8}}},
      {.name = "fused6_shuffle12", .source = "grayscott/fused_shuffle.comp", .cells = {2, 12}, .steps = 6,
       .subgroup_rows = true, .workgroups = {{32, 8}}},
      {.name = "fused6_shuffle8", .source = "grayscott/fused_shuffle.comp", .cells = {2, 8}, .steps = 6,
       .subgroup_rows = true, .workgroups = {{32, 12}}},
      {.name = "fused6_shuffle6", .source = "grayscott/fused_shuffle.comp", .cells = {2, 6}, .steps = 6,
       .subgroup_rows = true, .workgroups = {{32, 16}}},
    };
    AddShuffleSpace(table);
    return table;
  }();
  return variants;
}



const std::vector<Schedule>& Schedules() {
  // The chapter's run; a domain of 2 x 270 MB per state, beyond any GPU's last-level cache,
  // with fewer steps (so that its plain loop stays under a minute) and four images; and a short
  // run for CPU devices' quick set, where the chapter's takes seconds a run (docs/perf-notes.md,
  // section 10) and this one 1/64 of that, with eight images. A GPU's default set leaves the short
  // run out (Descriptor()): on a GPU it would measure launches, not the stencil.
  static const std::vector<Schedule> schedules = {
      {{2048, 1024}, 512, 32}, {{8192, 8192}, 64, 16}, {{1024, 512}, 32, 4}};
  return schedules;
}

std::string_view ToString(Mode mode) {
  switch (mode) {
    case Mode::kCompute: return "compute";
    case Mode::kComputeDownload: return "compute+download";
    case Mode::kComputeDownloadSum: return "compute+download+sum";
  }
  return "?";
}

void RequireWorkgroup(const Variant& variant, Extent workgroup) {
  if (variant.subgroup_rows) {
    Require(variant.cells.x == 2 && variant.steps % 2 == 0,
            fmt::format("{}: a subgroup-row variant makes two columns a work-item and an even number of steps (its "
                        "pairs of cells start at even columns), not {} and {}",
                        variant.name, variant.cells.x, variant.steps));
  }
  if (variant.steps > 1) {
    const Extent tile{workgroup.x * variant.cells.x, workgroup.y * variant.cells.y};
    Require(tile.x > 2 * variant.steps && tile.y > 2 * variant.steps,
            fmt::format("{}: a workgroup's tile ({}x{} cells for workgroup {}x{}) must be more than {} cells on each "
                        "side (its {}-step halo takes {})",
                        variant.name, tile.x, tile.y, workgroup.x, workgroup.y, 2 * variant.steps, variant.steps,
                        2 * variant.steps));
    return;
  }
  const uint32_t min_side = 2 * variant.border + 1;
  RequireSupport(workgroup.x >= min_side && workgroup.y >= min_side,
          fmt::format("{}: GPU workgroups must have at least {} work-items in each dimension (the {}-cell border "
                      "takes {}), not {}x{}",
                      variant.name, min_side, variant.border, 2 * variant.border, workgroup.x, workgroup.y));
}

uint32_t SharedBytes(const Variant& variant, Extent workgroup) {
  if (variant.steps <= 1) return 0;
  // Two buffers of two rows of a work-item's cells (CELLS_X (U, V) pairs).
  if (variant.subgroup_rows) return 2 * 2 * variant.cells.x * 2 * sizeof(float) * workgroup.x * workgroup.y;
  const bool single = std::ranges::any_of(variant.defines, [](const Define& d) { return d.name == "SINGLE_BUFFER"; });
  return (single ? 1 : 2) * 2 * sizeof(float) * workgroup.x * variant.cells.x * workgroup.y * variant.cells.y;
}

uint32_t Passes(const Variant& variant, uint32_t steps) { return (steps + variant.steps - 1) / variant.steps; }

struct Simulation::Impl {
  Context* context;
  Variant variant;  // a copy: a test's variant may be a temporary
  Layout layout;
  std::array<uint32_t, 3> groups;
  KernelSpec spec;
  std::unique_ptr<Kernel> kernel;
  // What the driver says the kernel uses (registers, shared memory, spills), where it says
  // (VK_KHR_pipeline_executable_properties); asked once, on the first compute-mode measurement.
  std::optional<std::vector<PipelineStatistic>> statistics;
  std::unique_ptr<Buffer> states;   // state 0 (U, V planes), then state 1
  std::unique_ptr<Buffer> initial;  // the initial state's U and V planes, for Reset
  std::unique_ptr<Bindings> bindings;
  uint32_t current = 0;  // the state holding the latest step
  // The download modes.
  uint32_t image = 0;
  Simulation::HostSlots host_slots;
  std::shared_ptr<Buffer> slots;  // kSlots V planes, host-visible
  std::unique_ptr<PipelinedBatches> images;
  // The compute mode's run of `compute_total` steps, recorded once for all of its calls.
  std::unique_ptr<TimedBatch> compute;
  uint32_t compute_total = 0;

  uint64_t plane_bytes() const { return layout.plane * sizeof(float); }
  uint64_t PlaneOffset(uint32_t state, uint32_t species) const { return (2 * state + species) * plane_bytes(); }

  // One dispatch of `steps` steps from state `from` into the other one, over `grid` workgroups
  // whose tiles are those of their IDs' `group_mask` bits (a simulation's own grid, all bits).
  void RecordPass(Commands& c, uint32_t from, uint32_t steps, const std::array<uint32_t, 3>& grid,
                  uint32_t group_mask = ~0u) const {
    const uint32_t to = 1 - from;
    std::array<uint32_t, 4> offsets{
        static_cast<uint32_t>(PlaneOffset(from, 0)), static_cast<uint32_t>(PlaneOffset(from, 1)),
        static_cast<uint32_t>(PlaneOffset(to, 0)), static_cast<uint32_t>(PlaneOffset(to, 1))};
    c.Dispatch(*kernel, *bindings, grid, offsets,
               Push{layout.width, layout.height, layout.stride, layout.lead, steps, group_mask});
  }
  void RecordPass(Commands& c, uint32_t from, uint32_t steps) const { RecordPass(c, from, steps, groups); }
  // `steps` steps from state `from`, in passes of variant.steps and a shorter last one; each pass
  // reads what the previous one wrote.
  void RecordSteps(Commands& c, uint32_t from, uint32_t steps) const {
    const uint32_t passes = Passes(variant, steps);
    for (uint32_t i = 0; i < passes; ++i) {
      if (i > 0) c.Barrier();
      RecordPass(c, (from + i) % 2, std::min(variant.steps, steps - i * variant.steps));
    }
  }
  // The state holding the result of `steps` steps from state `from`.
  uint32_t After(uint32_t from, uint32_t steps) const { return (from + Passes(variant, steps)) % 2; }
  // State `which` (0 or 1) as the device holds it.
  State Download(uint32_t which) const {
    State state{.layout = layout, .u = std::vector<float>(layout.plane), .v = std::vector<float>(layout.plane)};
    states->Download(std::as_writable_bytes(std::span(state.u)), PlaneOffset(which, 0));
    states->Download(std::as_writable_bytes(std::span(state.v)), PlaneOffset(which, 1));
    return state;
  }
};

namespace {

// The kernel of `variant` at `workgroup`, after the device's support for it is checked: subgroup
// rows, shared memory.
KernelSpec SpecOf(Context& context, const Variant& variant, Extent workgroup) {
  const DeviceInfo& info = context.info();
  if (variant.subgroup_rows) {
    RequireSupport(info.subgroup_shuffle_relative,
                   fmt::format("{} needs subgroupShuffleUp/Down in compute shaders, which the device lacks", variant.name));
    // A device whose compute subgroups vary in size may split a row; csbench does not yet ask
    // the pipeline for one size (requiredSubgroupSize), so such a device skips these.
    RequireSupport(info.min_subgroup_size == info.max_subgroup_size,
                   fmt::format("{}: a workgroup row must be one subgroup, and the device's compute subgroups may be "
                               "{} to {} invocations wide",
                               variant.name, info.min_subgroup_size, info.max_subgroup_size));
    RequireSupport(workgroup.x == info.subgroup_size,
                   fmt::format("{}: a workgroup row is one subgroup, so its x size must be the device's subgroup size "
                               "({}), not {}",
                               variant.name, info.subgroup_size, workgroup.x));
  }
  RequireSupport(SharedBytes(variant, workgroup) <= info.max_shared_memory_bytes,
          fmt::format("{} at workgroup {}x{} needs {} bytes of shared memory; the device allows {}", variant.name,
                      workgroup.x, workgroup.y, SharedBytes(variant, workgroup), info.max_shared_memory_bytes));
  std::vector<Define> defines = variant.defines;
  defines.push_back({"CELLS_X", std::to_string(variant.cells.x)});
  defines.push_back({"CELLS_Y", std::to_string(variant.cells.y)});
  if (variant.steps > 1) defines.push_back({"STEPS", std::to_string(variant.steps)});
  return KernelSpec{.label = variant.name,
                    .source = variant.source,
                    .defines = defines,
                    .local_size = {workgroup.x, workgroup.y, 1},
                    .constants = ParameterConstants(),
                    .bindings = 4,
                    .push_bytes = sizeof(Push)};
}

}  // namespace

Simulation::Simulation(Context& context, const Variant& variant, Extent workgroup, const State& initial,
                       HostSlots host_slots)
    : s_(std::make_unique<Impl>()) {
  s_->host_slots = std::move(host_slots);
  RequireWorkgroup(variant, workgroup);
  const DeviceInfo& info = context.info();
  s_->context = &context;
  s_->variant = variant;
  s_->layout = initial.layout;
  const Extent tile = TileOf(variant, workgroup);
  s_->groups = {(s_->layout.width + tile.x - 1) / tile.x, (s_->layout.height + tile.y - 1) / tile.y, 1};
  Require(s_->plane_bytes() % info.min_storage_buffer_offset_alignment == 0,
          "a plane is not a multiple of the device's minStorageBufferOffsetAlignment");
  RequireSupport(
      s_->plane_bytes() <= info.max_storage_buffer_range,
      fmt::format("a {}x{} plane ({} MiB) is larger than the device's maxStorageBufferRange ({} MiB)", s_->layout.width,
                  s_->layout.height, s_->plane_bytes() >> 20, info.max_storage_buffer_range >> 20));
  Require(4 * s_->plane_bytes() <= (uint64_t{1} << 32), "dynamic offsets past 4 GiB");
  s_->spec = SpecOf(context, variant, workgroup);
  s_->kernel = std::make_unique<Kernel>(context, s_->spec);
  s_->states = std::make_unique<Buffer>(context, 4 * s_->plane_bytes());
  s_->initial = std::make_unique<Buffer>(context, 2 * s_->plane_bytes());
  s_->initial->Upload(std::as_bytes(std::span(initial.u)), 0);
  s_->initial->Upload(std::as_bytes(std::span(initial.v)), s_->plane_bytes());
  const uint64_t range = s_->plane_bytes();
  s_->bindings = std::make_unique<Bindings>(s_->kernel->Bind(
      {{s_->states.get(), range}, {s_->states.get(), range}, {s_->states.get(), range}, {s_->states.get(), range}}));
  // Steps never write border cells, so state 1's borders keep what this copy gives them.
  context.Run([&](Commands& c) { c.Copy(*s_->initial, 0, *s_->states, s_->PlaneOffset(1, 0), 2 * range); });
  Reset();
}

Simulation::~Simulation() = default;

void Simulation::Reset(bool poison) {
  const Layout& l = s_->layout;
  s_->context->Run([&](Commands& c) {
    c.Copy(*s_->initial, 0, *s_->states, s_->PlaneOffset(0, 0), 2 * s_->plane_bytes());
    if (!poison) return;
    for (uint32_t species = 0; species < 2; ++species) {
      for (uint32_t y = 0; y < l.height; ++y) {
        c.Fill(*s_->states, kPoison, s_->PlaneOffset(1, species) + l.Index(0, y) * sizeof(float),
               l.width * sizeof(float));
      }
    }
  });
  s_->current = 0;
}

State Simulation::Simulate(uint32_t steps) {
  s_->context->Run([&](Commands& c) { s_->RecordSteps(c, s_->current, steps); });
  s_->current = s_->After(s_->current, steps);
  return s_->Download(s_->current);
}

void Simulation::RecordMaskedPass(Commands& c, const std::array<uint32_t, 3>& grid, uint32_t group_mask) const {
  s_->RecordPass(c, 0, s_->variant.steps, grid, group_mask);
}

State Simulation::MaskedPass(const std::array<uint32_t, 3>& grid, uint32_t group_mask) {
  Reset(/*poison=*/true);
  s_->context->Run([&](Commands& c) { RecordMaskedPass(c, grid, group_mask); });
  return s_->Download(1);
}

const KernelSpec& Simulation::spec() const { return s_->spec; }

void Simulation::PrepareImages(uint32_t total, uint32_t image) {
  Require(image > 0 && total % image == 0,
          fmt::format("{} steps are not a whole number of {}-step images", total, image));
  // Kept from the previous call of the same benchmark (Google Benchmark calls it once per
  // repetition): allocating the host-visible slots (768 MiB at 8192x8192) on every call cost more than
  // the timed run at 8192x8192, and the idle device then needed its warm-up again.
  if (s_->images != nullptr && s_->image == image && s_->images->size() == total / image) return;
  s_->image = image;
  const uint64_t slot_bytes = kSlots * s_->plane_bytes();
  s_->images.reset();  // recorded with the slots it replaces
  s_->slots = s_->host_slots ? s_->host_slots(slot_bytes)
                             : std::make_shared<Buffer>(*s_->context, slot_bytes, Memory::kHost);
  Require(s_->slots->size() >= slot_bytes, "host slots smaller than asked for");
  s_->images = std::make_unique<PipelinedBatches>(*s_->context, total / image, [&](Commands& c, uint32_t k) {
    // Every image is its own passes (a fused pass never crosses an image), so image k starts from
    // the state that k images' passes end in.
    const uint32_t from = (k * Passes(s_->variant, image)) % 2;
    s_->RecordSteps(c, from, image);
    // The copy reads what the last step wrote.
    c.Barrier();
    c.Copy(*s_->states, s_->PlaneOffset(s_->After(from, image), 1), *s_->slots, (k % kSlots) * s_->plane_bytes(),
           s_->plane_bytes());
  });
}

void Simulation::RunImages(const std::function<void(uint32_t, std::span<const float>)>& on_image) {
  Require(s_->images != nullptr, "RunImages before PrepareImages");
  // The batches were recorded for a run from state 0, where Reset leaves the simulation.
  Require(s_->current == 0, "RunImages needs the state Reset() leaves");
  const uint64_t plane = s_->layout.plane;
  auto slots = s_->slots->mapped();
  const float* floats = reinterpret_cast<const float*>(slots.data());
  s_->images->Run(kSlots, [&](uint32_t k) { on_image(k, std::span(floats + (k % kSlots) * plane, plane)); });
  s_->current = (s_->images->size() * Passes(s_->variant, s_->image)) % 2;
}

void Simulation::MeasureCompute(benchmark::State& state, uint32_t total) {
  if (s_->compute == nullptr || s_->compute_total != total) {
    s_->compute.reset();
    s_->compute = std::make_unique<TimedBatch>(*s_->context, [&](Commands& c) { s_->RecordSteps(c, 0, total); });
    s_->compute_total = total;
  }
  TimedBatch& timed = *s_->compute;
  const double cells = static_cast<double>(s_->layout.cells());
  MeasureTimedRuns(
      state, s_->context, [&] { Reset(); },
      [&] {
        const double seconds = timed.Run();
        s_->current = s_->After(0, total);
        return seconds;
      },
      {.elements = cells * total,
       .bytes = kBytesPerCellStep * cells * total,
       .ops = kFlopPerCellStep * cells * total,
       .ops_lower_bound = true,
       // A fused pass reads and writes each cell once for its steps: its memory bound is `steps`
       // times the one-step roofline (roofline% stays against the one-step one, and says so).
       .bound_bytes = kBytesPerCellStep * cells * total / std::max<uint32_t>(s_->variant.steps, 1),
       .dispatches = static_cast<double>(Passes(s_->variant, total)),
       // The two states (U and V each) stay where the steps leave them.
       .footprint = kBytesPerCellStep * cells},
      s_->context->gpu_timer() ? "gpu clock" : "host clock");
  if (!s_->statistics) s_->statistics = PipelineStatistics(*s_->context, s_->spec);
  for (const PipelineStatistic& stat : *s_->statistics) state.counters["stat:" + stat.name] = stat.value;
}

void Simulation::MeasureImages(benchmark::State& state, uint32_t total, uint32_t image,
                               bool sum) {
  PrepareImages(total, image);
  const Layout& layout = s_->layout;
  double checksum = 0.0;
  // The host's sum of an image, on MeasuredPathThreads() threads, each a band of rows: one thread,
  // reading from host memory at a single core's bandwidth, would make the sum, not the device, set
  // this mode's time (several times compute+download's at 8192x8192), and tie it to a shared host's
  // memory speed (docs/perf-notes.md, "Regression verdicts at suite scale (6)").
  std::optional<ForkJoin> threads;
  std::vector<double> bands;
  if (sum) {
    threads.emplace(MeasuredPathThreads());
    bands.resize(threads->threads());
  }
  auto run = [&] {
    RunImages([&](uint32_t, std::span<const float> v) {
      if (!sum) return;
      const uint32_t parts = threads->threads();
      threads->Run([&](uint32_t part) {
        bands[part] = CellSum(layout, v, layout.height * part / parts, layout.height * (part + 1) / parts);
      });
      for (double band : bands) checksum += band;
    });
  };
  const double cells = static_cast<double>(layout.cells());
  MeasureHostClocked(
      state, s_->context, [&] { Reset(); }, run, {.elements = cells * total, .bytes = kBytesPerCellStep * cells * total});
  benchmark::DoNotOptimize(checksum);
  state.counters["images"] = total / image;
  if (sum) state.counters["host_threads"] = threads->threads();
}

Comparison CompareWithReference(const State& initial, const State& got, uint32_t steps) {
  const Extent domain{initial.layout.width, initial.layout.height};
  State want = initial;
  State scratch = initial;
  Simulate(want, scratch, steps);
  std::vector<float> got_cells = Cells(got.layout, got.u);
  std::vector<float> want_cells = Cells(want.layout, want.u);
  const std::vector<float> got_v = Cells(got.layout, got.v);
  const std::vector<float> want_v = Cells(want.layout, want.v);
  got_cells.insert(got_cells.end(), got_v.begin(), got_v.end());
  want_cells.insert(want_cells.end(), want_v.begin(), want_v.end());
  Comparison c = Compare(got_cells, want_cells, kTolerance, kToleranceFloor);
  if (!c.passed) {
    // Name the cell: the index runs over U's cells, then V's.
    const uint64_t cells = uint64_t{domain.x} * domain.y;
    const uint64_t i = c.worst_index % cells;
    c.message += fmt::format(" ({} at x={}, y={} after {} steps on {}x{})", c.worst_index < cells ? "U" : "V",
                             i % domain.x, i / domain.x, steps, domain.x, domain.y);
  }
  return c;
}

Comparison Check(Context& context, const Variant& variant, Extent workgroup, Extent domain, uint32_t steps) {
  const State initial = InitialState(domain.x, domain.y, {0, 0, domain.x, domain.y}, kSeed);
  Simulation simulation(context, variant, workgroup, initial);
  simulation.Reset(/*poison=*/true);
  return CompareWithReference(initial, simulation.Simulate(steps), steps);
}

// The instruction-mix ceiling's tiles: the grid's workgroup IDs keep their low 4 bits, so every
// workgroup works on one of 16 x 16 tiles. For fused6_shuffle12 at 32x8 (output tiles of 52x84
// cells) that domain is 832x1344 cells, 8.9 MB a direction, which an H200's L2 (50 MiB) keeps.
constexpr uint32_t kOnChipTiles = 16;

struct OnChip::Impl {
  Variant variant;
  std::array<uint32_t, 3> grid{};  // the tiles of the domain whose pass is timed
  double cell_steps = 0;
  State initial;  // the 16 x 16 tiles' domain, seeded whole
  std::unique_ptr<Simulation> simulation;
};

OnChip::OnChip(Context& context, const Variant& variant, Extent workgroup, Extent domain)
    : s_(std::make_unique<Impl>()) {
  Require(variant.subgroup_rows && variant.steps > 1 && variant.source == "grayscott/fused_shuffle.comp",
          fmt::format("{} is not a fused kernel of subgroup rows (fused_shuffle.comp)", variant.name));
  RequireWorkgroup(variant, workgroup);
  s_->variant = variant;
  const Extent output = TileOf(variant, workgroup);
  s_->grid = {(domain.x + output.x - 1) / output.x, (domain.y + output.y - 1) / output.y, 1};
  s_->cell_steps = static_cast<double>(domain.x) * domain.y * variant.steps;
  // The tiles the masked IDs reach: all of a small grid's, else 16 a side, whole tiles, so that the
  // masked grid's pass over them is a simulation pass of their domain.
  const Extent tiles{std::min(s_->grid[0], kOnChipTiles), std::min(s_->grid[1], kOnChipTiles)};
  const Extent cells{tiles.x * output.x, tiles.y * output.y};
  s_->initial = InitialState(cells.x, cells.y, {0, 0, cells.x, cells.y}, kSeed);
  s_->simulation = std::make_unique<Simulation>(context, variant, workgroup, s_->initial);
}

OnChip::~OnChip() = default;

void OnChip::Record(Commands& c) const { s_->simulation->RecordMaskedPass(c, s_->grid, kOnChipTiles - 1); }

double OnChip::cell_steps() const { return s_->cell_steps; }

const KernelSpec& OnChip::spec() const { return s_->simulation->spec(); }

Comparison OnChip::Check() {
  const State got = s_->simulation->MaskedPass(s_->grid, kOnChipTiles - 1);
  Comparison c = CompareWithReference(s_->initial, got, s_->variant.steps);
  if (!c.passed) {
    c.message += fmt::format(" (the {}x{} cells of the ceiling's tiles after one pass of {} steps)",
                             s_->initial.layout.width, s_->initial.layout.height, s_->variant.steps);
  }
  return c;
}

const Family<Variant>& Descriptor() {
  static const Family<Variant> family = [] {
    // 67x45: partial tiles on the right and bottom edges for every tile size. 13x7: a domain
    // smaller than most tiles, so one workgroup covers it and most of its work-items have no
    // cell. 131x97 (fused variants): at least two tiles on each axis for every fused tile, so
    // halos overlap both ways and the last tiles are partial.
    const std::vector<Extent> test_domains = {kCheckDomain, {13, 7}};
    std::vector<Variant> variants = Variants();
    for (Variant& v : variants) {
      if (v.steps <= 1) continue;
      v.test_domains = test_domains;
      v.test_domains.push_back({131, 97});
      v.test_workgroups = SmallDeviceWorkgroups(v);
    }
    // Each built-in domain has its own run length; a --domain runs the chapter's, the first.
    const Schedule& chapter = Schedules().front();
    Axis total{.name = "total", .prefix = "total", .values = {chapter.total}, .tested = false};
    Axis image{.name = "image", .prefix = "image", .values = {chapter.image}, .tested = false};
    std::vector<Extent> domains;
    for (const Schedule& run : Schedules()) {
      domains.push_back(run.domain);
      total.by_domain.push_back({run.domain, {run.total}});
      image.by_domain.push_back({run.domain, {run.image}});
    }
    static_assert(std::size(kModes) == 3);
    const Axis mode{.name = "mode",
                    .prefix = "",
                    .values = {ToString(kModes[0]), ToString(kModes[1]), ToString(kModes[2])},
                    .tested = false};
    return Family<Variant>{
        .name = "run_simulation",
        .variants = std::move(variants),
        .domains = std::move(domains),
        .test_domains = test_domains,
        .workgroup_prefix = "workgroup",
        .one_dimensional = false,
        .axes = {total, image, mode},
        // compute: the device's timestamps around one command buffer of all steps. The download
        // modes: the host's clock, since the host's handling of each image is part of them.
        .timer = [](const Point& p) { return p.Text("mode") == ToString(Mode::kCompute) ? Timer::kTimestamps
                                                                                        : Timer::kHostClock; },
        .unit = benchmark::kMillisecond,
        .context_lines = [](const Context&) -> std::vector<std::pair<std::string, std::string>> {
          return {{"run_simulation_clock",
                   "compute: `timer` (GPU timestamps around one command buffer of all steps); compute+download, "
                   "compute+download+sum: host clock (real time) from the first submission until the host has "
                   "handled the last image (+sum: counter host_threads threads sum each image)"}};
        },
        .make = MakeCase<GpuCase>,
        .plain_loop = RegisterPlainLoop,
        // The download modes have nothing to download on the host: one loop per run, in mode compute.
        .plain_loop_at = [](const Point& p) { return p.Text("mode") == ToString(Mode::kCompute); },
        .plain_loop_cpu_default = {ShortRun({})},
        // The host CPU's single-core loops (64 steps of 8192x8192, the chapter's 512 of 2048x1024)
        // measure the host, not the GPU, and take tens of seconds a repetition on a server core, a
        // fifth of a GPU's whole default suite (docs/perf-notes.md, "How long the whole default
        // suite takes"): a GPU's default set leaves them out.
        .plain_loop_gpu_leaves_out = kEveryPoint,
        // And the short run, which only a CPU device's default set needs (a GPU finishes it in well
        // under a millisecond).
        .gpu_leaves_out = {ShortRun({})}};
  }();
  return family;
}

}  // namespace csbench::grayscott
