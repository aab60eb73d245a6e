#include "bench/reduction.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "harness/base/error.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/driver_probes.hpp"
#include "kernels/reduction/reference.hpp"

namespace csbench::reduction {
namespace {

constexpr uint64_t kSeed = 20140326;  // the first study's publication date

struct Push {
  uint32_t width;
  uint32_t height;
  uint32_t tiles_x;
  uint32_t tile_row0;
  uint32_t input_row0;
};

// A band of tile rows reduced by one dispatch, reading a window of image rows.
struct Band {
  uint32_t tile_row0;
  uint32_t tile_rows;
  uint32_t input_row0;
};

// One band when the image fits in one storage-buffer binding (any GPU); several where
// maxStorageBufferRange is smaller (lavapipe: 128 MiB, less than a 7680x4320 image).
std::vector<Band> Bands(Extent domain, Extent tile, Extent tiles, uint64_t max_range, uint32_t& window_rows) {
  const uint64_t row_bytes = uint64_t{domain.x} * 16;
  window_rows = static_cast<uint32_t>(std::min<uint64_t>(domain.y, max_range / row_bytes));
  const uint32_t tile_rows_per_band = window_rows / tile.y;
  Require(tile_rows_per_band > 0 || window_rows == domain.y,
          fmt::format("a tile row of {} image rows does not fit the device's maxStorageBufferRange", tile.y));
  std::vector<Band> bands;
  if (window_rows == domain.y) return {{0, tiles.y, 0}};
  for (uint32_t row = 0; row < tiles.y; row += tile_rows_per_band) {
    // The last band's window ends at the image's last row, so no window runs past the copy.
    uint32_t first = std::min(row * tile.y, domain.y - window_rows);
    bands.push_back({row, std::min(tile_rows_per_band, tiles.y - row), first});
  }
  return bands;
}

Extent TilesOf(Extent domain, Extent tile) {
  return {(domain.x + tile.x - 1) / tile.x, (domain.y + tile.y - 1) / tile.y};
}

}  // namespace

struct Inputs::Domain {
  Extent domain;
  std::vector<float> image;
  std::unique_ptr<RotatingInput> device;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<float>> references;

  const std::vector<float>& Reference(Extent tile) {
    auto [it, inserted] = references.try_emplace({tile.x, tile.y});
    if (inserted) it->second = TileLuminance(image, domain.x, domain.y, tile.x, tile.y);
    return it->second;
  }
};

Inputs::Inputs() = default;
Inputs::~Inputs() = default;

Inputs::Domain& Inputs::For(Extent domain, Context* context, CacheMode cache) {
  auto& data = domains_[{domain.x, domain.y}];
  if (!data) {
    data = std::make_unique<Domain>();
    data->domain = domain;
    data->image = RandomImage(domain.x, domain.y, kSeed);
  }
  if (context != nullptr && !data->device) {
    data->device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->image)), cache);
  }
  return *data;
}

const std::vector<float>& Inputs::Image(Extent domain) { return For(domain, nullptr, CacheMode::kWarm).image; }

namespace {

// One variant at one workgroup size on one domain (its fields are its state, public).
struct GpuCase : Case {
  GpuCase(Suite& suite, const Variant& row, const Point& point);
  Comparison Check() override;
  void Measure(benchmark::State& state) override;

  Context* context;
  std::string name;
  Variant variant;
  Extent workgroup;
  Extent tile;
  Extent tiles;
  Inputs::Domain* data;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;
  std::vector<Band> bands;
  uint32_t window_rows = 0;

  // Workgroups along a tile row: each reduces tiles_per_group of its row's tiles.
  uint32_t GroupsX() const { return (tiles.x + variant.tiles_per_group - 1) / variant.tiles_per_group; }

  void Record(Commands& c, uint32_t copy) const {
    const Extent domain = data->domain;
    for (size_t b = 0; b < bands.size(); ++b) {
      const Band& band = bands[b];
      // Bands write disjoint tiles, but their bindings cover the whole output.
      if (b > 0) c.Barrier();
      uint64_t window_offset = uint64_t{band.input_row0} * domain.x * 16;
      std::array<uint32_t, 2> offsets{static_cast<uint32_t>(data->device->Offset(copy) + window_offset), 0};
      c.Dispatch(*kernel, *bindings, {GroupsX(), band.tile_rows, 1}, offsets,
                 Push{domain.x, domain.y, tiles.x, band.tile_row0, band.input_row0});
    }
  }
};

GpuCase::GpuCase(Suite& suite, const Variant& row, const Point& point)
    : context(suite.context), name(point.name), variant(row), workgroup(point.workgroup) {
  const Extent domain = point.domain;
  RequireWorkgroup(*context, workgroup);
  RequireSupport(
      std::has_single_bit(workgroup.x * workgroup.y),
      fmt::format("{}: the tree needs a power-of-two workgroup, not {}x{}", variant.name, workgroup.x, workgroup.y));
  RequireSupport(!variant.needs_subgroup_arithmetic || context->info().subgroup_arithmetic,
                   fmt::format("{} needs subgroup arithmetic in compute shaders, which {} does not support",
                               variant.name, context->info().name));
  // The unrolled tail runs in subgroup 0 alone, on subgroup barriers: a driver that cannot do
  // that would leave tiles unwritten, so the variant is skipped there with the probe's finding.
  if (std::find(variant.defines.begin(), variant.defines.end(), Define{"UNROLLED", "1"}) != variant.defines.end()) {
    const std::string& defect = SubgroupBarrierInBranchDefect(*context);
    RequireSupport(defect.empty(), fmt::format("{}: {} ({})", variant.name, defect, context->info().driver_info));
  }
  tile = {workgroup.x * variant.fetch.x, workgroup.y * variant.fetch.y};
  tiles = TilesOf(domain, tile);
  std::vector<Define> defines = variant.defines;
  defines.push_back({"FETCH_X", std::to_string(variant.fetch.x)});
  defines.push_back({"FETCH_Y", std::to_string(variant.fetch.y)});
  if (variant.tiles_per_group > 1) defines.push_back({"TILES_PER_GROUP", std::to_string(variant.tiles_per_group)});
  kernel = std::make_unique<Kernel>(*context,
                                    KernelSpec{.label = variant.name,
                                               .source = variant.source,
                                               .defines = defines,
                                               .local_size = {workgroup.x * workgroup.y, 1, 1},
                                               .constants = {workgroup.x, workgroup.y, context->info().subgroup_size},
                                               .bindings = 2,
                                               .push_bytes = sizeof(Push)});
  data = &suite.Shared<Inputs>("reduction").For(domain, context, suite.options.cache);
  output = std::make_unique<Buffer>(*context, uint64_t{tiles.x} * tiles.y * sizeof(float));
  bands = Bands(domain, tile, tiles, context->info().max_storage_buffer_range, window_rows);
  const uint64_t window_bytes = uint64_t{window_rows} * domain.x * 16;
  Require(bands.size() == 1 || (domain.x * 16) % context->info().min_storage_buffer_offset_alignment == 0,
          "image rows are not aligned to the device's minStorageBufferOffsetAlignment");
  bindings = std::make_unique<Bindings>(kernel->Bind({{&data->device->buffer(), window_bytes}, {output.get(), 0}}));
}

Comparison GpuCase::Check() {
  const std::vector<float> got =
      PoisonedRun(*context, *output, size_t{tiles.x} * tiles.y, [&](Commands& c) { Record(c, 0); });
  return Compare(got, data->Reference(tile), kTolerance);
}

void GpuCase::Measure(benchmark::State& state) {
  const Extent domain = data->domain;
  const double pixels = static_cast<double>(domain.x) * domain.y;
  const double tile_count = static_cast<double>(tiles.x) * tiles.y;
  MeasureDispatches(state, *context, [&](Commands& c, uint32_t i) { Record(c, i); }, data->device->copies(),
      // Luminance (3 multiplies, 2 adds) and its sum: 6 FLOP a pixel.
      {.elements = pixels, .bytes = pixels * 16 + tile_count * 4, .read_only = true, .ops = 6 * pixels});
  state.counters["tiles"] = tile_count;
}

void RegisterPlainLoop(Suite& suite, const Point& point) {
  const Extent domain = point.domain;
  Inputs& inputs = suite.Shared<Inputs>("reduction");
  AddPlainLoop(point.name, [&suite, &inputs, domain](benchmark::State& state) {
    const Inputs::Domain& data = inputs.For(domain, nullptr, suite.options.cache);
    Extent tiles = TilesOf(domain, kPlainLoopTile);
    std::vector<float> out(size_t{tiles.x} * tiles.y);
    const double pixels = static_cast<double>(domain.x) * domain.y;
    MeasurePlainLoop(
        state,
        [&] {
          TileLuminance(data.image, domain.x, domain.y, kPlainLoopTile.x, kPlainLoopTile.y, out);
          benchmark::DoNotOptimize(out.data());
        },
        {.elements = pixels, .bytes = pixels * 16 + static_cast<double>(tiles.x) * tiles.y * 4});
  });
}

}  // namespace

const Family<Variant>& Descriptor() {
  // Workgroups follow the studies: 16x16 threads reduce 1080p to 120x68; the prefetch rows use
  // the 2015 follow-up's shapes (4x16 -> 120x68, 8x32 -> 60x34, 16x64 -> 30x17, and 16x64
  // fetching 8x2 -> 15x9), plus the 2014 post's 64- and 16-thread groups.
  // Tests: odd sizes, partial tiles on both edges, and one domain smaller than a prefetch16 tile.
  // A CPU device's default set: every variant of the studies at its study workgroup (prefetch4 at
  // the three sizes the studies compare) at 1080p, and at 640x480, where the 2015 follow-up
  // expects them to differ more; the plain loop at 1080p.
  const std::vector<Extent> studies = {{1920, 1080}, {640, 480}};
  static const Family<Variant> family{
      .name = "reduction",
      .variants = {
      {.name = "interleaved", .source = "reduction/tree.comp", .defines = {{"INTERLEAVED", "1"}},
       .workgroups = {{4, 4}, {8, 8}, {16, 16}, {32, 32}},
       .cpu_default = {{.workgroups = {{16, 16}}, .domains = studies}}},
      {.name = "sequential", .source = "reduction/tree.comp",
       .workgroups = {{4, 4}, {8, 8}, {16, 16}, {32, 32}},
       .cpu_default = {{.workgroups = {{16, 16}}, .domains = studies}}},
      {.name = "unrolled", .source = "reduction/tree.comp", .defines = {{"UNROLLED", "1"}},
       .workgroups = {{4, 4}, {8, 8}, {16, 16}, {32, 32}},
       .cpu_default = {{.workgroups = {{16, 16}}, .domains = studies}}},
      {.name = "prefetch2", .source = "reduction/tree.comp", .defines = {{"UNROLLED", "1"}},
       .fetch = {2, 1}, .workgroups = {{8, 8}, {8, 16}},
       .cpu_default = {{.workgroups = {{8, 16}}, .domains = studies}}},
      {.name = "prefetch4", .source = "reduction/tree.comp", .defines = {{"UNROLLED", "1"}},
       .fetch = {4, 1}, .workgroups = {{4, 4}, {4, 16}, {8, 32}, {16, 64}},
       .cpu_default = {{.workgroups = {{4, 16}, {8, 32}, {16, 64}}, .domains = studies}}},
      {.name = "prefetch4_shared2x", .source = "reduction/tree.comp",
       .defines = {{"UNROLLED", "1"}, {"SHARED_2X", "1"}}, .fetch = {4, 1}, .workgroups = {{16, 64}},
       .cpu_default = {{.workgroups = {{16, 64}}, .domains = studies}}},
      {.name = "prefetch16", .source = "reduction/tree.comp", .defines = {{"UNROLLED", "1"}, {"SHARED_2X", "1"}},
       .fetch = {8, 2}, .workgroups = {{16, 64}},
       .cpu_default = {{.workgroups = {{16, 64}}, .domains = studies}}},
      {.name = "subgroup", .source = "reduction/subgroup.comp", .fetch = {4, 1},
       .workgroups = {{8, 8}, {4, 16}, {8, 32}, {16, 64}}, .needs_subgroup_arithmetic = true,
       .cpu_default = {{.workgroups = {{8, 32}}, .domains = studies}}},
      // The subgroup kernel on prefetch2's tiles (2 pixels a work-item, 16x16 at 8x16): the most
      // work-items, so the most loads in flight, at the small images whose fixed cost decides.
      {.name = "subgroup_fetch2", .source = "reduction/subgroup.comp", .fetch = {2, 1},
       .workgroups = {{8, 8}, {8, 16}}, .needs_subgroup_arithmetic = true},
      // The subgroup kernel with each workgroup reducing 4 or 8 tiles of its row in turn: a
      // quarter or an eighth of the workgroups, for the small images' fixed cost a dispatch.
      {.name = "subgroup_tiles4", .source = "reduction/subgroup.comp", .fetch = {4, 1},
       .workgroups = {{8, 16}, {8, 32}}, .needs_subgroup_arithmetic = true, .tiles_per_group = 4},
      {.name = "subgroup_tiles8", .source = "reduction/subgroup.comp", .fetch = {4, 1},
       .workgroups = {{8, 16}, {8, 32}}, .needs_subgroup_arithmetic = true, .tiles_per_group = 8},},
      .domains = {{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}, {7680, 4320}},
      .test_domains = {{333, 187}, {97, 61}},
      .one_dimensional = false,
      .make = MakeCase<GpuCase>,
      .plain_loop = RegisterPlainLoop,
      .plain_loop_cpu_default = {{.domains = {{1920, 1080}}}}};
  return family;
}

namespace {
const Declaration kDeclared = Declare("reduction", &Descriptor);
}

}  // namespace csbench::reduction
