#include "harness/run_notes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <mutex>

namespace csbench {
namespace {

struct Notes {
  std::mutex lock;
  bool keep_samples = false;
  std::map<std::string, std::vector<RunNote>, std::less<>> by_name;
  std::map<std::string, CaseNote, std::less<>> cases;
  std::map<std::string, IntensityNote, std::less<>> intensities;
};

Notes& TheNotes() {
  static Notes notes;
  return notes;
}

}  // namespace

void KeepSamples(bool keep) { TheNotes().keep_samples = keep; }
bool KeepingSamples() { return TheNotes().keep_samples; }

void NoteCaseMade(const std::string& name, double case_seconds, double check_seconds, bool ahead) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  CaseNote& note = notes.cases[name];
  note.case_seconds = case_seconds;
  note.check_seconds = check_seconds;
  note.ahead = ahead;
  if (!ahead) note.waited_seconds = case_seconds + check_seconds;
}

void NoteCaseWait(const std::string& name, double waited_seconds) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  notes.cases[name].waited_seconds = waited_seconds;
}

std::string CaseJsonMembers(const std::string& name) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  auto it = notes.cases.find(name);
  if (it == notes.cases.end()) return {};
  const CaseNote& c = it->second;
  return fmt::format(", \"case_s\": {:.4f}, \"check_s\": {:.4f}, \"waited_s\": {:.4f}, \"made_ahead\": {}",
                     c.case_seconds, c.check_seconds, c.waited_seconds, c.ahead);
}

void NoteIntensity(const std::string& name, IntensityNote note) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  notes.intensities[name] = std::move(note);
}

std::string IntensityJsonMembers(const std::string& name) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  auto it = notes.intensities.find(name);
  if (it == notes.intensities.end()) return {};
  const IntensityNote& n = it->second;
  return fmt::format(
      ", \"intensity\": {{\"ops_per_element\": {:.6g}, \"unit\": \"{}\", \"bytes_per_element\": {:.6g}, "
      "\"memory_ceiling\": \"{}\", \"compute_ceiling\": \"{}\", \"binds\": \"{}\", \"dispatch_share\": {:.4f}, "
      "\"lower_bound\": {}}}",
      n.ops_per_element, n.unit, n.bytes_per_element, n.memory_ceiling, n.compute_ceiling, n.binds, n.dispatch_share,
      n.lower_bound);
}

void AddRunNote(const std::string& name, RunNote note) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  notes.by_name[name].push_back(std::move(note));
}

std::vector<RunNote> TakeRunNotes(const std::string& name, size_t runs) {
  Notes& notes = TheNotes();
  std::lock_guard lock(notes.lock);
  auto it = notes.by_name.find(name);
  if (it == notes.by_name.end()) return {};
  std::vector<RunNote> all = std::move(it->second);
  notes.by_name.erase(it);
  if (all.size() > runs) all.erase(all.begin(), all.end() - static_cast<std::ptrdiff_t>(runs));
  return all;
}

std::string ToJsonMembers(const RunNote& note) {
  std::string json;
  if (note.clock_guard > 0) json += fmt::format("\"clock_guard\": {:.4f}, ", note.clock_guard);
  json += fmt::format("\"measured\": {}", note.measured);
  if (note.clock_guard > 0 && !note.probed) json += ", \"probed\": false";
  if (note.throttled) json += ", \"throttled\": true";
  if (!note.samples.empty()) json += fmt::format(", \"samples_s\": [{:.6e}]", fmt::join(note.samples, ", "));
  return json;
}

}  // namespace csbench
