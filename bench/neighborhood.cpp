#include "bench/neighborhood.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/selection.hpp"
#include "kernels/neighborhood/reference.hpp"
#include "kernels/packing/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::neighborhood {
namespace {

constexpr uint64_t kSeed = 0x6e65696768626f72;  // "neighbor"

struct Push {
  uint32_t width;
  uint32_t height;
  uint32_t depth;
};

uint32_t Groups(uint32_t extent, uint32_t group) { return (extent + group - 1) / group; }

}  // namespace

std::string Sized3(std::string_view prefix, Extent3 e) {
  if (e.z == 1) return Sized(prefix, {e.x, e.y});
  return fmt::format("{}{}x{}x{}", prefix, e.x, e.y, e.z);
}

const std::vector<Variant>& Variants() {
  // The article's square groups: 8x8 (56% border), 16x16 (27%) and the largest, 32x32 (13%).
  static const std::vector<Variant> variants = {
      {.name = "direct", .source = "neighborhood/blur.comp", .workgroups = {{8, 8}, {16, 16}, {32, 32}}},
      {.name = "shared_tile", .source = "neighborhood/blur.comp", .defines = {{"SHARED_TILE", "1"}},
       .workgroups = {{8, 8}, {16, 16}, {32, 32}}, .shared_tile = true},
  };
  return variants;
}

const std::vector<Extent3>& Domains() {
  // 1080p: the post-processing case the article has in mind; 33 MB of RGBA floats in, 33 out.
  static const std::vector<Extent3> domains = {{1920, 1080, 1}};
  return domains;
}

const Family& ThisFamily() {
  static const Family family{.name = "neighborhood",
                             .variants = &Variants(),
                             .domains = &Domains(),
                             .filter = [](std::span<const float> in, Extent3 d, std::span<float> out) {
                               Blur3x3(in, d.x, d.y, out);
                             }};
  return family;
}

struct Inputs::Domain {
  Extent3 extent;
  std::vector<float> image;
  // Per storage format (0: float, 1: half): the device copies and the reference, on first use.
  std::unique_ptr<RotatingInput> device[2];
  std::vector<float> reference[2];
};

Inputs::Inputs(const Family* family) : family_(family) {}
Inputs::~Inputs() = default;

Inputs::Domain& Inputs::For(Extent3 domain, bool half_storage, Context* context, CacheMode cache) {
  auto& data = domains_[{domain.x, domain.y, domain.z}];
  if (!data) {
    data = std::make_unique<Domain>();
    data->extent = domain;
    data->image.resize(static_cast<size_t>(domain.Count()) * 4);
    FillUniform(data->image, kSeed);
  }
  const int format = half_storage ? 1 : 0;
  if (context != nullptr && !data->device[format]) {
    if (half_storage) {
      // The fp16 variants filter the image rounded to fp16, and so does their reference.
      std::vector<uint16_t> halves = packing::ToHalf(data->image);
      data->device[1] = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(halves)), cache);
      std::vector<float> rounded = packing::ToFloat(halves);
      data->reference[1].resize(rounded.size());
      family_->filter(rounded, domain, data->reference[1]);
    } else {
      data->device[0] = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->image)), cache);
      data->reference[0].resize(data->image.size());
      family_->filter(data->image, domain, data->reference[0]);
    }
  }
  return *data;
}

std::string BenchmarkName(const Family& family, const Variant& variant, Extent3 workgroup, Extent3 domain) {
  return Name({family.name, variant.name, Sized3("wg", workgroup), Sized3("domain", domain)});
}

struct GpuCase::State {
  Context* context;
  const Family* family;
  const Variant* variant;
  Extent3 workgroup;
  Extent3 domain;
  Inputs::Domain* data;
  const RotatingInput* input;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;

  uint64_t PixelBytes() const { return variant->half_storage ? 8 : 16; }

  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 2> offsets{input->Offset(copy), 0};
    c.Dispatch(*kernel, *bindings,
               {Groups(domain.x, workgroup.x), Groups(domain.y, workgroup.y), Groups(domain.z, workgroup.z)}, offsets,
               Push{domain.x, domain.y, domain.z});
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, Extent3 workgroup, Extent3 domain, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  const DeviceInfo& info = context.info();
  RequireSupport(!variant.needs_float16 || (info.shader_float16 && info.storage_buffer_16bit),
          fmt::format("{} needs shaderFloat16 and storageBuffer16BitAccess; {} has {} and {}", variant.name,
                      info.name, info.shader_float16 ? "the first" : "not the first",
                      info.storage_buffer_16bit ? "the second" : "not the second"));
  s_->context = &context;
  s_->family = &inputs.family();
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->domain = domain;
  s_->kernel = std::make_unique<Kernel>(context, KernelSpec{.label = variant.name,
                                                            .source = variant.source,
                                                            .defines = variant.defines,
                                                            .local_size = {workgroup.x, workgroup.y, workgroup.z},
                                                            .bindings = 2,
                                                            .push_bytes = sizeof(Push)});
  s_->data = &inputs.For(domain, variant.half_storage, &context, context.options().cache);
  s_->input = s_->data->device[variant.half_storage ? 1 : 0].get();
  const uint64_t bytes = static_cast<uint64_t>(domain.Count()) * s_->PixelBytes();
  s_->output = std::make_unique<Buffer>(context, bytes);
  s_->bindings = std::make_unique<Bindings>(s_->kernel->Bind({{&s_->input->buffer(), bytes}, {s_->output.get(), 0}}));
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  s_->context->Run([&](Commands& c) {
    c.Fill(*s_->output, kPoison);
    c.Barrier();
    s_->Record(c, 0);
  });
  const size_t values = static_cast<size_t>(s_->domain.Count()) * 4;
  std::vector<float> got(values);
  if (s_->variant->half_storage) {
    std::vector<uint16_t> halves(values);
    s_->output->Download(std::as_writable_bytes(std::span(halves)));
    got = packing::ToFloat(halves);
  } else {
    s_->output->Download(std::as_writable_bytes(std::span(got)));
  }
  // The poison word is a NaN as a float; as two halves it is 0xdead (a finite -0.00054) and
  // 0x7fc0 (a NaN), so every unwritten fp16 pixel still fails the check.
  const int format = s_->variant->half_storage ? 1 : 0;
  return Compare(got, s_->data->reference[format], s_->variant->tolerance, 1e-2);
}

void GpuCase::Measure(benchmark::State& state) {
  const double pixels = s_->domain.Count();
  const std::string name = BenchmarkName(*s_->family, *s_->variant, s_->workgroup, s_->domain);
  MeasureDispatches(
      state, *s_->context, name, [&](Commands& c, uint32_t i) { s_->Record(c, i); }, s_->input->copies(),
      {.elements = pixels, .bytes = pixels * 2 * s_->PixelBytes()});
  if (s_->variant->shared_tile) {
    const Extent3 wg = s_->workgroup;
    state.counters["border/interior%"] = 100 * BorderPerInterior(wg.x, wg.y, wg.z);
    state.counters["border/loaded%"] = 100 * BorderPerLoaded(wg.x, wg.y, wg.z);
  }
}

void RegisterFamily(Suite& suite, const Family& family) {
  // Inputs are made for their family, so the slot holds a pointer made here.
  auto& slot = suite.Shared<std::unique_ptr<Inputs>>(family.name);
  if (!slot) slot = std::make_unique<Inputs>(&family);
  Inputs& inputs = *slot;
  for (const Extent3& domain : *family.domains) {
    if (suite.context != nullptr) {
      for (const Variant& variant : *family.variants) {
        for (const Extent3& wg : variant.workgroups) {
          RegisterGpuCase(BenchmarkName(family, variant, wg, domain), [&suite, &inputs, &variant, wg, domain] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, domain, inputs);
          });
        }
      }
    }
    if (!family.plain_loop) continue;
    auto plain = [&inputs, &family, domain](benchmark::State& state) {
      RunGuarded(state, [&] {
        const Inputs::Domain& data = inputs.For(domain, false, nullptr, CacheMode::kWarm);
        std::vector<float> out(data.image.size());
        for (auto _ : state) {
          family.filter(data.image, domain, out);
          benchmark::DoNotOptimize(out.data());
          benchmark::ClobberMemory();
        }
        SetThroughput(state, {.elements = domain.Count(), .bytes = domain.Count() * 32});
      });
    };
    AddBenchmark(Name({family.name, "plain_loop", Sized3("domain", domain)}), plain)
        ->Unit(benchmark::kMillisecond);
  }
}

void Register(Suite& suite) { RegisterFamily(suite, ThisFamily()); }

}  // namespace csbench::neighborhood
