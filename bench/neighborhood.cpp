#include "bench/neighborhood.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "harness/base/error.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
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

struct Domain {
  std::vector<float> image;
  // Per storage format (0: float, 1: half): the device copies and the reference, on first use.
  std::unique_ptr<RotatingInput> device[2];
  std::vector<float> reference[2];
};

// The random image (or volume) of each domain of one family, made on first use and kept.
struct Inputs {
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::unique_ptr<Domain>> domains;

  Domain& For(Extent domain, const Filter& filter, bool half_storage, Context* context, CacheMode cache) {
    auto& data = domains[{domain.x, domain.y, domain.z}];
    if (!data) {
      data = std::make_unique<Domain>();
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
        filter(rounded, domain, data->reference[1]);
      } else {
        data->device[0] = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->image)), cache);
        data->reference[0].resize(data->image.size());
        filter(data->image, domain, data->reference[0]);
      }
    }
    return *data;
  }
};

class GpuCase : public Case {
 public:
  GpuCase(Suite& suite, const std::string& family, const Filter& filter, const Variant& variant, const Point& point)
      : context_(suite.context),
        name_(point.name),
        variant_(variant),
        workgroup_(point.workgroup),
        domain_(point.domain) {
    const DeviceInfo& info = context_->info();
    RequireSupport(!variant.needs_float16 || (info.shader_float16 && info.storage_buffer_16bit),
                     fmt::format("{} needs shaderFloat16 and storageBuffer16BitAccess; {} has {} and {}", variant.name,
                                 info.name, info.shader_float16 ? "the first" : "not the first",
                                 info.storage_buffer_16bit ? "the second" : "not the second"));
    RequireWorkgroup(*context_, workgroup_);
    const uint64_t bytes = static_cast<uint64_t>(domain_.Count()) * PixelBytes();
    RequireStorage(*context_, bytes);
    kernel_ = std::make_unique<Kernel>(*context_, KernelSpec{.label = variant.name,
                                                             .source = variant.source,
                                                             .defines = variant.defines,
                                                             .local_size = {workgroup_.x, workgroup_.y, workgroup_.z},
                                                             .bindings = 2,
                                                             .push_bytes = sizeof(Push)});
    auto& inputs = suite.Shared<Inputs>(family);
    data_ = &inputs.For(domain_, filter, variant.half_storage, context_, suite.options.cache);
    input_ = data_->device[variant.half_storage ? 1 : 0].get();
    output_ = std::make_unique<Buffer>(*context_, bytes);
    bindings_ = std::make_unique<Bindings>(kernel_->Bind({{&input_->buffer(), bytes}, {output_.get(), 0}}));
  }

  Comparison Check() override {
    context_->Run([&](Commands& c) {
      c.Fill(*output_, kPoison);
      c.Barrier();
      Record(c, 0);
    });
    const size_t values = static_cast<size_t>(domain_.Count()) * 4;
    std::vector<float> got(values);
    if (variant_.half_storage) {
      std::vector<uint16_t> halves(values);
      output_->Download(std::as_writable_bytes(std::span(halves)));
      got = packing::ToFloat(halves);
    } else {
      output_->Download(std::as_writable_bytes(std::span(got)));
    }
    // The poison word is a NaN as a float; as two halves it is 0xdead (a finite -0.00054) and
    // 0x7fc0 (a NaN), so every unwritten fp16 pixel still fails the check.
    return Compare(got, data_->reference[variant_.half_storage ? 1 : 0], variant_.tolerance, 1e-2);
  }

  // Adds the tile's border overhead for shared_tile variants.
  void Measure(benchmark::State& state) override {
    const double pixels = domain_.Count();
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { Record(c, i); }, input_->copies(),
                      {.elements = pixels, .bytes = pixels * 2 * PixelBytes()});
    if (variant_.shared_tile) {
      const Extent wg = workgroup_;
      state.counters["border/interior%"] = 100 * BorderPerInterior(wg.x, wg.y, wg.z);
      state.counters["border/loaded%"] = 100 * BorderPerLoaded(wg.x, wg.y, wg.z);
    }
  }

 private:
  uint64_t PixelBytes() const { return variant_.half_storage ? 8 : 16; }

  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 2> offsets{input_->Offset(copy), 0};
    c.Dispatch(*kernel_, *bindings_,
               {Groups(domain_.x, workgroup_.x), Groups(domain_.y, workgroup_.y), Groups(domain_.z, workgroup_.z)},
               offsets, Push{domain_.x, domain_.y, domain_.z});
  }

  Context* context_;
  std::string name_;
  Variant variant_;
  Extent workgroup_;
  Extent domain_;
  Domain* data_;
  const RotatingInput* input_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Buffer> output_;
  std::unique_ptr<Bindings> bindings_;
};

}  // namespace

Family<Variant> BlurFamily(std::string name, std::vector<Variant> variants, std::vector<Extent> domains,
                           std::vector<Extent> test_domains, Filter filter, bool plain_loop) {
  Family<Variant> family{.name = name,
                         .variants = std::move(variants),
                         .domains = std::move(domains),
                         .test_domains = std::move(test_domains),
                         .one_dimensional = false};
  // The 3-D family (domains of a depth) takes --domain=WxHxD and --workgroup=XxYxZ.
  family.three_dimensional = std::any_of(family.domains.begin(), family.domains.end(), [](Extent d) { return d.z > 1; });
  family.make = [name, filter](Suite& suite, const Variant& v, const Point& p) -> std::unique_ptr<Case> {
    return std::make_unique<GpuCase>(suite, name, filter, v, p);
  };
  if (!plain_loop) return family;
  family.plain_loop = [name, filter](Suite& suite, const Point& point) {
    const Extent domain = point.domain;
    Inputs& inputs = suite.Shared<Inputs>(name);
    AddPlainLoop(point.name, [&inputs, filter, domain](benchmark::State& state) {
      const Domain& data = inputs.For(domain, filter, false, nullptr, CacheMode::kWarm);
      std::vector<float> out(data.image.size());
      MeasurePlainLoop(
          state,
          [&] {
            filter(data.image, domain, out);
            benchmark::DoNotOptimize(out.data());
          },
          {.elements = domain.Count(), .bytes = domain.Count() * 32});
    });
  };
  return family;
}

const Family<Variant>& Descriptor() {
  // The article's square groups: 8x8 (56% border), 16x16 (27%) and the largest, 32x32 (13%).
  // 1080p: the post-processing case the article has in mind; 33 MB of RGBA floats in, 33 out.
  static const Family<Variant> family =
      BlurFamily("neighborhood",
                 {{.name = "direct",
                   .source = "neighborhood/blur.comp",
                   .workgroups = {{8, 8}, {16, 16}, {32, 32}},
                   .cpu_default = kEveryPoint},
                  {.name = "shared_tile",
                   .source = "neighborhood/blur.comp",
                   .defines = {{"SHARED_TILE", "1"}},
                   .workgroups = {{8, 8}, {16, 16}, {32, 32}},
                   .shared_tile = true,
                   .cpu_default = kEveryPoint}},
                 {{1920, 1080}}, {{67, 45}, {13, 7}},
                 [](std::span<const float> in, Extent d, std::span<float> out) { Blur3x3(in, d.x, d.y, out); });
  return family;
}

namespace {
const Declaration kDeclared = Declare("neighborhood", &Descriptor);
}

}  // namespace csbench::neighborhood
