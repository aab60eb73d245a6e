// The fields that the cases of one-dimensional families share, set once from the point.
#pragma once

#include <cstdint>
#include <string>

#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"

namespace csbench {

// A case over a domain of `count_` elements in workgroups `workgroup_` wide, for the variant
// `*variant_` (a row of the family's table, which outlives its cases). `name_` is the
// benchmark's, as MeasureDispatches reports it.
template <typename Row>
class LinearCase : public Case {
 protected:
  LinearCase(Suite& suite, const Row& row, const Point& point)
      : context_(suite.context),
        name_(point.name),
        variant_(&row),
        workgroup_(point.workgroup.x),
        count_(point.domain.x) {}

  Context* context_;
  std::string name_;
  const Row* variant_;
  uint32_t workgroup_;
  uint32_t count_;
};

}  // namespace csbench
