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
#ifdef CSBENCH_WITH_CUDA
namespace cuda_peer {
void Register(Suite& suite);
}
#endif

inline void RegisterFamilies(Suite& suite) {
  roofline::Register(suite);
  reduction::Register(suite);
  grayscott::Register(suite);
#ifdef CSBENCH_WITH_CUDA
  cuda_peer::Register(suite);
#endif
}

}  // namespace csbench
