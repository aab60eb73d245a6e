// The run's session: everything a run holds beside each benchmark's own record. The selection and
// the records it made (selection.cpp), the case being measured with the cases made ahead and the
// timed batch kept for it (prefetch.cpp, measure.cpp), and the ceilings measured on each device
// with the cache file behind them (ceilings.cpp, roofline.cpp). Each of those files reaches its
// part through TheSession(); what the parts hold is in session_state.hpp, for those files only.
//
// A benchmark is known by its Record (record.hpp), never by its name: the case slot, the cases
// made ahead and the kept batch hold the record they belong to, and the records are kept in the
// run's order.
#pragma once

#include <memory>

namespace csbench {

struct SelectionState;
struct CaseState;
struct CeilingState;

class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  SelectionState& selection() { return *selection_; }
  CaseState& cases() { return *cases_; }
  CeilingState& ceilings() { return *ceilings_; }

 private:
  std::unique_ptr<SelectionState> selection_;
  std::unique_ptr<CaseState> cases_;
  std::unique_ptr<CeilingState> ceilings_;
};

// The process's session, made on first use and kept to the process's end. It is the one mutable
// static of the measuring layer, and it must be one: Google Benchmark calls a benchmark's function
// with its State alone and its reporters with finished runs alone, and a case asks for a ceiling
// from inside its own Measure, so these reach the run's state here rather than through arguments.
Session& TheSession();

}  // namespace csbench
