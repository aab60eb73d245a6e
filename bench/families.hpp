// Every family's registration function, called by main in this order.
#pragma once

#include "harness/suite.hpp"

namespace csbench {

namespace roofline {
void Register(Suite& suite);
}
namespace reduction {
void Register(Suite& suite);
}
namespace grayscott {
void Register(Suite& suite);
}
namespace group_size {
void Register(Suite& suite);
}
namespace vector_width {
void Register(Suite& suite);
}
namespace bank_conflicts {
void Register(Suite& suite);
}
namespace atomics {
void Register(Suite& suite);
}
namespace append {
void Register(Suite& suite);
}
namespace barriers {
void Register(Suite& suite);
}
namespace neighborhood {
void Register(Suite& suite);
}
namespace neighborhood3d {
void Register(Suite& suite);
}
namespace packing {
void Register(Suite& suite);
}
namespace occupancy {
void Register(Suite& suite);
}
namespace uniform_data {
void Register(Suite& suite);
}
#ifdef CSBENCH_WITH_CUDA
namespace cuda_peer {
void Register(Suite& suite);
}
#endif

inline void RegisterFamilies(Suite& suite) {
  roofline::Register(suite);
  reduction::Register(suite);
  grayscott::Register(suite);
  group_size::Register(suite);
  vector_width::Register(suite);
  bank_conflicts::Register(suite);
  atomics::Register(suite);
  append::Register(suite);
  barriers::Register(suite);
  neighborhood::Register(suite);
  neighborhood3d::Register(suite);
  packing::Register(suite);
  occupancy::Register(suite);
  uniform_data::Register(suite);
#ifdef CSBENCH_WITH_CUDA
  cuda_peer::Register(suite);
#endif
}

}  // namespace csbench
