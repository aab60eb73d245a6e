// What the run's Session (session.hpp) holds, part by part: read and written only by the files
// that own each part (selection.cpp; prefetch.cpp and measure.cpp; ceilings.cpp and roofline.cpp).
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "harness/measure/ceilings.hpp"
#include "harness/measure/measure_detail.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/selection.hpp"
#include "harness/measure/session.hpp"

namespace csbench {

// The selection and what it let through (selection.cpp).
struct SelectionState {
  Selection selection;
  size_t offered = 0;
  // The selected benchmarks' records, in registration order, which is the run's order and Google
  // Benchmark's family index; each record knows its place (Record::order).
  std::vector<std::shared_ptr<Record>> records;
  std::vector<std::string> names;  // the same, by name, for the console's width and listings
  // Stand-ins for unselected names: they only absorb the settings callers chain onto them.
  std::deque<std::unique_ptr<benchmark::internal::Benchmark>> stand_ins;
  // A family being registered (FamilyRegistration): its benchmarks wait here, settings and all,
  // until the whole family has registered, so that a family that throws halfway leaves nothing.
  // Registrations may nest (a declaration that registers two families guards each): the
  // outermost one hands the benchmarks over.
  int open = 0;
  std::vector<std::unique_ptr<benchmark::internal::Benchmark>> pending;
};

// The current case, the cases in making ahead of it and its kept timed batch (prefetch.cpp,
// measure.cpp), and what the clock guard's last loop left (clock_guard.cpp).
struct CaseState {
  CaseSlot slot;
  bool ahead_enabled = false;
  struct Making {
    Record* record;
    std::shared_future<std::shared_ptr<void>> made;
  };
  std::deque<Making> ahead;  // in the run's order
  // A case left behind where no making started (the benchmark measuring lets none beside it: a
  // host-clocked loop's): freed by the next making before it makes anything, or on the first
  // thread where a case is made there or the run ends (prefetch.cpp). At most one waits.
  std::shared_ptr<measure_detail::Retired> left_to_free;
  measure_detail::KeptBatch kept;
  GuardMemory clock_guard;  // shared by the guarded loops of the run's device
};

// A ceiling as the cache file keeps it: its note and when it was measured (seconds since the epoch).
struct KeptCeiling {
  NotedCeiling ceiling;
  double measured_at = 0;
};

// The ceilings of each device, measured once a run, and the cache file they are written to and
// reused from (ceilings.cpp, roofline.cpp): one cache for all of them.
struct CeilingState {
  // Held while a ceiling is looked up or measured. Recursive: a ceiling's measuring may ask for
  // another (the copy's bytes depend on the cold footprint).
  std::recursive_mutex measuring;
  // By device and ceiling name (the name NoteCeiling notes it under).
  std::map<std::pair<const Context*, std::string>, double> values;
  std::map<const Context*, ColdCache> cold;

  std::mutex noting;  // the notes and the file, below
  std::map<std::string, NotedCeiling> noted;
  CeilingsCache cache;
  std::map<std::string, KeptCeiling> kept;  // the cache file's entries of this key, driver and revision
  bool write_failed = false;
};

}  // namespace csbench
