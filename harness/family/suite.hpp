// What a family's registration function gets: the device (or none), the run's options, and a
// place for state that benchmarks of one family share (inputs made once per domain).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <typeinfo>

#include "harness/base/options.hpp"

namespace csbench {

class Context;

struct Suite {
  Context* context = nullptr;  // null: the plain_loop backend only
  Options options;

  // The family's shared state of type T, made on first use. It lives no longer than the Suite,
  // which main destroys before the Context, so device buffers in it are freed while the device
  // exists. Kept by family and type: two kinds of state of one family never share a slot.
  template <typename T>
  T& Shared(const std::string& family) {
    auto& slot = shared_[family + "\n" + typeid(T).name()];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

 private:
  std::map<std::string, std::shared_ptr<void>> shared_;
};

}  // namespace csbench
