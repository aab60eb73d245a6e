// The order in which main registers the families (and a run runs them). Most families declare
// themselves from their descriptor (harness/family.hpp); the roofline, Gray-Scott and the CUDA
// peers register themselves by hand. A declared family not named here runs after the others, in
// name order, so a new family needs no line here.
#pragma once

#include "harness/family.hpp"
#include "harness/suite.hpp"

namespace csbench {

namespace roofline {
void Register(Suite& suite);
}
namespace grayscott {
void Register(Suite& suite);
}
#ifdef CSBENCH_WITH_CUDA
namespace cuda_peer {
void Register(Suite& suite);
}
#endif

inline void RegisterFamilies(Suite& suite) {
  roofline::Register(suite);
  RegisterDeclared(suite, {"reduction"});
  grayscott::Register(suite);
  RegisterDeclared(suite, {"group_size", "vector_width", "bank_conflicts", "atomics", "append", "barriers",
                           "neighborhood", "neighborhood3d", "packing", "occupancy", "uniform_data"});
#ifdef CSBENCH_WITH_CUDA
  cuda_peer::Register(suite);
#endif
  RegisterDeclared(suite, {});
}

}  // namespace csbench
