// The order in which main registers the families (and a run runs them). Every family declares
// itself from its descriptor (harness/family/family.hpp); this list only orders them. A declared family
// not named here runs after the others, in name order, so a new family needs no line here.
#pragma once

#include <string_view>

#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"

namespace csbench {

// The roofline first: every roofline% of the run is measured against it; then the other ceilings,
// which every bound% is.
inline constexpr std::string_view kFamilyOrder[] = {
    "roofline",     "ceiling",        "reduction",      "run_simulation", "group_size", "vector_width",
    "bank_conflicts", "atomics",      "append",         "barriers",   "neighborhood",
    "neighborhood3d", "packing",      "occupancy",      "uniform_data",
    // Built only with a CUDA toolkit; RegisterInOrder passes over a name nobody declared.
    "cuda_peer"};

inline void RegisterFamilies(Suite& suite) { RegisterInOrder(suite, kFamilyOrder); }

}  // namespace csbench
