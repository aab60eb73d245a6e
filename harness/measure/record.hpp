// One record per benchmark: what it is (family, variant, clock, axes) and what happened to it
// (each call's note, the making and checking of its case, its declared arithmetic, and what its
// timed loops keep from one call to the next). The registration owns it (AddBenchmark), the
// benchmark's function fills it while it runs, and the run's JSON writer (harness/run/) reads
// it. Nothing about a benchmark is kept anywhere else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "harness/measure/points.hpp"
#include "harness/measure/run_notes.hpp"

namespace csbench {

// How a benchmark takes part in making cases ahead (harness/measure/measure.hpp):
enum class Prefetch {
  kNo,      // its case is made in its turn, and nothing is made beside its loop: a CUDA peer's
            // making (its stream takes no lock)
  kMade,    // its case may be made ahead, beside another benchmark's loop, but nothing is made
            // beside its own: timed by the host's clock (the second thread's work would be in
            // its time)
  kBeside,  // both: every timed loop of it is timed by Vulkan's timestamps
  kWaits,   // its case is made in its turn, and its loop waits until every case in making ahead
            // is made: a plain loop on the host's cores. The cases after it may be made ahead
            // beside the loops before it.
};

class Record {
 public:
  // `description`: null for a benchmark nobody described (its JSON entry has no "csbench").
  Record(std::string name, const Description* description);

  const std::string& name() const { return name_; }
  bool described() const { return description_.has_value(); }
  const Description* description() const { return description_ ? &*description_ : nullptr; }

  // One call of the benchmark's function (Google Benchmark calls it to find its iteration count,
  // then once per repetition).
  void AddRun(RunNote note);
  // The notes of the last `runs` calls, oldest first: the reported runs of a benchmark are its
  // last calls (the iteration count is searched in the first repetition only). A note whose
  // iterations differ from its run's is not that run's: the caller checks.
  std::vector<RunNote> LastRuns(size_t runs) const;

  // The latest making of the case (on whichever thread), and the first thread's wait for it.
  void NoteCaseMade(double case_seconds, double check_seconds, bool ahead);
  void NoteCaseWait(double waited_seconds);
  // A wait besides its own case's: a plain loop's for the cases in making ahead (FinishAhead).
  void AddCaseWait(double waited_seconds);
  std::optional<CaseNote> case_note() const;

  // A warm-up before one of the benchmark's timed loops (WarmUp).
  void AddWarmUp(double seconds, uint32_t runs, uint32_t probes);
  std::optional<WarmUpNote> warm_up() const;

  void NoteIntensity(IntensityNote note);
  std::optional<IntensityNote> intensity() const;

  // What the benchmark's timed loops keep from its first call for the calls after it, touched on
  // the run's first thread only. The dispatches a sample holds (StableBatchSize; 0: not yet
  // calibrated); the passes the first call took up to the minimum time (0: none yet); the
  // fastest loop the clock probe vouched for (ClockGuardHooks).
  uint32_t batch_size = 0;
  size_t first_passes = 0;
  uint32_t rotation_start = 0;  // where the next sample begins in its rotation (MeasureTimedBatches)
  Vouch vouch;

  // Its place in the run's order (the selection's registration order).
  size_t order = 0;
  // The hash of the SPIR-V it runs, where its family can tell (a manifest's: every pass's, at its
  // point; the tune cache's key): set at registration (Describing). Throws where a shader does not
  // compile; empty function: not known.
  std::function<std::string()> shader_hash;

  // How the benchmark's case is made on the thread ahead (RegisterPrefetch): set at
  // registration, read on the run's first thread.
  Prefetch prefetch = Prefetch::kNo;
  std::function<std::shared_ptr<void>()> make_ahead;

 private:
  std::string name_;
  std::optional<Description> description_;
  mutable std::mutex lock_;  // the case's making may be noted from the thread ahead
  std::vector<RunNote> runs_;
  std::optional<CaseNote> case_;
  std::optional<WarmUpNote> warm_up_;
  std::optional<IntensityNote> intensity_;
};

// A thread's current T: the innermost ThreadCurrent<T> open on it, or null. Opened for a scope
// (the benchmark being run, the description being registered); the one before comes back when
// it closes.
template <typename T>
class ThreadCurrent {
 public:
  explicit ThreadCurrent(T* value) : previous_(slot_) { slot_ = value; }
  ~ThreadCurrent() { slot_ = previous_; }
  ThreadCurrent(const ThreadCurrent&) = delete;
  ThreadCurrent& operator=(const ThreadCurrent&) = delete;
  static T* Get() { return slot_; }

 private:
  static inline thread_local T* slot_ = nullptr;
  T* previous_;
};

// The record of the benchmark whose function the calling thread runs, or null (a unit test
// calling a strategy directly, a plain call outside any benchmark). AddBenchmark's wrapper opens
// the scope around the benchmark's function; the thread ahead around a case it makes.
using RecordScope = ThreadCurrent<Record>;
inline Record* CurrentRecord() { return RecordScope::Get(); }

// The description the next AddBenchmark on this thread gives its record: registration states it
// around the call that registers the benchmark (a family's plain loop is registered by the
// family's own function, which need not pass it on). The scope keeps its own copy, so that it
// may be opened on a temporary.
// `shader_hash`, where given, is the record's (Record::shader_hash).
class Describing {
 public:
  explicit Describing(Description description, std::function<std::string()> shader_hash = {})
      : described_{std::move(description), std::move(shader_hash)}, current_(&described_) {}

  struct Described {
    Description description;
    std::function<std::string()> shader_hash;
  };

 private:
  const Described described_;  // before current_, which points at it
  ThreadCurrent<const Described> current_;
};
inline const Description* DescriptionBeingRegistered() {
  const Describing::Described* d = ThreadCurrent<const Describing::Described>::Get();
  return d != nullptr ? &d->description : nullptr;
}
inline std::function<std::string()> ShaderHashBeingRegistered() {
  const Describing::Described* d = ThreadCurrent<const Describing::Described>::Get();
  return d != nullptr ? d->shader_hash : nullptr;
}

}  // namespace csbench
