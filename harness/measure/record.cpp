#include "harness/measure/record.hpp"

#include <fmt/format.h>

#include <cmath>

#include "harness/base/error.hpp"

namespace csbench {

Record::Record(std::string name, const Description* description) : name_(std::move(name)) {
  if (description == nullptr) return;
  description_ = *description;
  for (const Coordinate& c : description_->axes) {
    // JSON has no infinity or NaN.
    if (c.value.is_number()) {
      Require(std::isfinite(c.value.number()), fmt::format("{}: axis {} is not a finite number", name_, c.axis));
    }
  }
}

void Record::AddRun(RunNote note) {
  std::lock_guard guard(lock_);
  runs_.push_back(std::move(note));
}

std::vector<RunNote> Record::LastRuns(size_t runs) const {
  std::lock_guard guard(lock_);
  const size_t from = runs_.size() > runs ? runs_.size() - runs : 0;
  return {runs_.begin() + static_cast<std::ptrdiff_t>(from), runs_.end()};
}

void Record::NoteCaseMade(double case_seconds, double check_seconds, bool ahead) {
  std::lock_guard guard(lock_);
  CaseNote& note = case_.emplace(case_.value_or(CaseNote{}));
  note.case_seconds = case_seconds;
  note.check_seconds = check_seconds;
  note.ahead = ahead;
  if (!ahead) note.waited_seconds = case_seconds + check_seconds;
}

void Record::NoteCaseWait(double waited_seconds) {
  std::lock_guard guard(lock_);
  if (!case_) case_.emplace();
  case_->waited_seconds = waited_seconds;
}

void Record::AddCaseWait(double waited_seconds) {
  std::lock_guard guard(lock_);
  if (!case_) case_.emplace();
  case_->waited_seconds += waited_seconds;
}

std::optional<CaseNote> Record::case_note() const {
  std::lock_guard guard(lock_);
  return case_;
}

void Record::AddWarmUp(double seconds, uint32_t runs, uint32_t probes) {
  std::lock_guard guard(lock_);
  WarmUpNote& note = warm_up_.emplace(warm_up_.value_or(WarmUpNote{}));
  note.seconds += seconds;
  note.runs += runs;
  note.probes += probes;
}

std::optional<WarmUpNote> Record::warm_up() const {
  std::lock_guard guard(lock_);
  return warm_up_;
}

void Record::NoteIntensity(IntensityNote note) {
  std::lock_guard guard(lock_);
  intensity_ = std::move(note);
}

std::optional<IntensityNote> Record::intensity() const {
  std::lock_guard guard(lock_);
  return intensity_;
}

}  // namespace csbench
