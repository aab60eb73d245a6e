// The uniform_data family: positions transformed by a per-group matrix read at a group-uniform
// address (scalarizable: one copy per wave) or at an address only the lanes know (one copy per
// lane), with 4x4 matrices on xyzw or 4x3 matrices on xyz (w = 1 implied), after the article's
// advice on scalar loads, homogeneous coordinates and 4x3 matrices.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/kernel.hpp"
#include "harness/suite.hpp"

namespace csbench::uniform_data {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t rows = 4;  // 4: 4x4 matrices on xyzw; 3: 4x3 on xyz
  std::vector<uint32_t> workgroups;
};

const std::vector<Variant>& Variants();
const std::vector<uint32_t>& Domains();  // elements (positions) per dispatch

// Both sides sum four products; the reference in double, the GPU in float (maybe fused).
inline constexpr double kTolerance = 1e-5;

std::string BenchmarkName(const Variant& variant, uint32_t workgroup, uint32_t count);

// Random positions (rotated on the device) and matrices of each domain, per layout (rows).
class Inputs {
 public:
  struct Data;
  Inputs();
  ~Inputs();
  Data& For(uint32_t count, uint32_t rows, uint32_t group, Context* context, CacheMode cache);

 private:
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::unique_ptr<Data>> data_;
};

class GpuCase {
 public:
  GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs);
  ~GpuCase();

  Comparison Check();
  void Measure(benchmark::State& state);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

void Register(Suite& suite);

}  // namespace csbench::uniform_data
