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

inline void RegisterFamilies(Suite& suite) {
  roofline::Register(suite);
  reduction::Register(suite);
}

}  // namespace csbench
