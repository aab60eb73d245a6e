// The order a submitted command buffer runs in: its own dispatches, and each
// secondary command buffer it executes at the place it was executed (after how
// many of its own dispatches), several at one place in the order they were
// given. Pure, for the layer's counting at submission and its unit test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace csbench::capture {

// Calls own(ordinal) for each of the `dispatches` own dispatches and
// run(secondary) for each secondary of `executed` ((own dispatches before it,
// the secondary), in recording order), in the order they run.
template <class Secondary, class Own, class Run>
void InRunOrder(size_t dispatches, const std::vector<std::pair<uint32_t, Secondary>> &executed, Own own, Run run) {
  size_t next = 0;
  auto secondaries_before = [&](size_t ordinal) {
    for (; next < executed.size() && executed[next].first <= ordinal; ++next) run(executed[next].second);
  };
  for (size_t ordinal = 0; ordinal < dispatches; ++ordinal) {
    secondaries_before(ordinal);
    own(static_cast<uint32_t>(ordinal));
  }
  secondaries_before(SIZE_MAX);
}

}  // namespace csbench::capture
