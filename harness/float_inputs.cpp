#include "harness/float_inputs.hpp"

#include <span>

#include "kernels/random.hpp"

namespace csbench {

FloatInputs::Domain& FloatInputs::For(uint32_t count, Context* context, CacheMode cache) {
  auto& data = domains_[count];
  if (!data) {
    data = std::make_unique<Domain>();
    data->count = count;
    data->values.resize(count);
    FillUniform(data->values, seed_);
  }
  if (context != nullptr && !data->device) {
    data->device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->values)), cache);
  }
  return *data;
}

}  // namespace csbench
