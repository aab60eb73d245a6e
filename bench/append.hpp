// The append family (GDC 2010, "DirectCompute Performance on DX11 Hardware": append buffers rest
// on an atomic counter, and atomics cost performance; aggregate them, or recast the problem as a
// scan): stream compaction of a float buffer, keeping the elements above a threshold, by one
// atomic per kept element, by one atomic per subgroup after a ballot, and by a three-pass prefix
// sum with no atomics. Keep ratios of 1%, 50% and 99% move the cost from reading to appending.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/family/float_inputs.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::append {

enum class Method { kAtomicPerElement, kBallot, kScan };

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  Method method = Method::kAtomicPerElement;
  std::vector<Extent> workgroups;  // threads per group, powers of two
  bool needs_subgroup_ballot = false;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp

  // Whether the kept values come out in input order (the scan's), or in any order (an append
  // counter's, which the atomics' winners decide).
  bool ordered() const { return method == Method::kScan; }
};

// The random input of each domain (uniform in [0, 1)) and its rotated device copies, made on first
// use. The keep ratios share them: the threshold alone sets the ratio, so one rotation serves all
// three. The reference (the kept values, in order) is kept per domain and ratio.
class Inputs : public FloatInputs {
 public:
  Inputs();  // with the family's seed
  const std::vector<float>& Kept(const Domain& data, uint32_t keep_percent);

 private:
  std::map<std::pair<uint32_t, uint32_t>, std::vector<float>> kept_;  // by (count, percent)
};

// The family's inputs in the suite.
Inputs& SharedInputs(Suite& suite);

// Domains count floats; a further axis, keep, is the keep percentage (keep1, keep50, keep99). Each GPU
// case poisons the output and the counter, runs two dispatches as the timed loop records them
// (poisoning the output again between them, so the second's values are checked and a counter
// the record did not reset shows), then compares: the count exactly, the kept values as a
// multiset (atomic variants) or element for element (scan), and the element after the last
// kept one must still be poison.
const Family<Variant>& Descriptor();

}  // namespace csbench::append
