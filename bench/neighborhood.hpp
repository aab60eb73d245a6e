// The neighborhood family: a 3x3 blur of an RGBA float image, every invocation loading its nine
// pixels from device memory (`direct`) or the workgroup loading its tile plus a one-pixel border
// into shared memory once (`shared_tile`). The same machinery runs the 3D family
// (neighborhood3d) and the fp16 one (packing): a variant names its kernel, its workgroups and its
// pixel storage, a family its domains and reference.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "harness/check.hpp"
#include "harness/kernel.hpp"
#include "harness/naming.hpp"
#include "harness/suite.hpp"

namespace csbench::neighborhood {

// A workgroup or domain of up to three dimensions; z = 1 is a 2D one.
struct Extent3 {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;
  double Count() const { return static_cast<double>(x) * y * z; }
};

// "<prefix><x>x<y>" for a 2D extent, "<prefix><x>x<y>x<z>" for a 3D one.
std::string Sized3(std::string_view prefix, Extent3 extent);

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  std::vector<Extent3> workgroups;
  bool shared_tile = false;   // loads a tile plus border: its overhead is reported
  bool half_storage = false;  // f16vec4 pixels in device memory (8 bytes, not 16)
  bool needs_float16 = false;  // shaderFloat16 and storageBuffer16BitAccess
  double tolerance = 1e-5;    // relative, against the double-precision reference
};

const std::vector<Variant>& Variants();
const std::vector<Extent3>& Domains();

// A family run by this machinery: its name (the first part of every benchmark name), its
// variants, its domains and the plain-loop filter (input, domain) -> output.
struct Family {
  std::string name;
  const std::vector<Variant>* variants;
  const std::vector<Extent3>* domains;
  std::function<void(std::span<const float>, Extent3, std::span<float>)> filter;
  bool plain_loop = true;  // registers <family>/plain_loop/domain<...>
};

const Family& ThisFamily();

// The random image (or volume) of each domain, its rotated device copies in each storage format
// and its reference, made on first use and kept for the run.
class Inputs {
 public:
  struct Domain;
  explicit Inputs(const Family* family = &ThisFamily());
  ~Inputs();
  // The domain's data; with a context, also its device copies in the variant's storage format.
  Domain& For(Extent3 domain, bool half_storage, Context* context, CacheMode cache);
  const Family& family() const { return *family_; }

 private:
  const Family* family_;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::unique_ptr<Domain>> domains_;
};

// One variant at one workgroup size on one domain: its kernel, its rotated inputs and its output.
class GpuCase {
 public:
  GpuCase(Context& context, const Variant& variant, Extent3 workgroup, Extent3 domain, Inputs& inputs);
  ~GpuCase();

  // Poisons the output, runs the kernel once and compares with the plain loop.
  Comparison Check();
  // The timed loop; call Check() first. Adds the tile's border overhead for shared_tile variants.
  void Measure(benchmark::State& state);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The benchmark name: <family>/<variant>/wg<...>/domain<...>.
std::string BenchmarkName(const Family& family, const Variant& variant, Extent3 workgroup, Extent3 domain);

// Registers every variant x workgroup x domain of `family` (with a device) and its plain loop.
void RegisterFamily(Suite& suite, const Family& family);
void Register(Suite& suite);

}  // namespace csbench::neighborhood
