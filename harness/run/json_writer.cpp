#include "harness/run/json_writer.hpp"

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "harness/base/error.hpp"
#include "harness/base/ledger.hpp"
#include "harness/base/provenance.hpp"
#include "harness/measure/ceilings.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/spirv_cache.hpp"

namespace csbench {
namespace {

using Json = nlohmann::ordered_json;
using Run = benchmark::BenchmarkReporter::Run;

// `value` at `digits` after the point, as the report has always written these members.
double Fixed(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

// `value` at `digits` significant digits.
double Significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return value;
  std::ostringstream text;
  text.precision(digits - 1);
  text << std::scientific << value;
  return std::stod(text.str());
}

// Google Benchmark's JSON writes a NaN or infinite double as a bare NaN or Infinity, which JSON
// does not have; such a value becomes null.
std::string WithoutNonNumbers(const std::string& text) {
  static const std::regex kNonNumber(R"((": )-?(NaN|Infinity)([,\n]))");
  return std::regex_replace(text, kNonNumber, "$1null$3");
}

Json AxesObject(const std::vector<Coordinate>& axes) {
  Json object = Json::object();
  for (const Coordinate& c : axes) {
    if (c.value.is_number()) {
      // A whole number as JSON writes one (512, as the name spells it), any other as a double.
      const double number = c.value.number();
      if (std::trunc(number) == number && std::fabs(number) < 9e15) {
        object[c.axis] = static_cast<int64_t>(number);
      } else {
        object[c.axis] = number;
      }
    } else {
      object[c.axis] = c.value.text();
    }
  }
  return object;
}

// The run of `runs` whose record is `record`'s, from the last backwards: a benchmark's notes
// match its runs from the last backwards, so a run without a note (one that failed) leaves the
// earlier ones unmatched rather than shifted.
std::vector<const RunNote*> NotesOf(const std::vector<Run>& runs, const std::vector<const Record*>& records,
                                    std::vector<std::vector<RunNote>>& kept) {
  std::map<const Record*, size_t> counts;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (records[i] != nullptr && runs[i].run_type == Run::RT_Iteration) ++counts[records[i]];
  }
  std::map<const Record*, size_t> slot;
  for (const auto& [record, count] : counts) {
    slot[record] = kept.size();
    kept.push_back(record->LastRuns(count));
  }
  std::vector<const RunNote*> notes(runs.size(), nullptr);
  std::map<const Record*, size_t> seen;
  for (size_t i = 0; i < runs.size(); ++i) {
    const Record* record = records[i];
    if (record == nullptr || runs[i].run_type != Run::RT_Iteration) continue;
    const std::vector<RunNote>& mine = kept[slot[record]];
    const size_t from_end = counts[record] - seen[record]++;
    if (from_end > mine.size()) continue;
    const RunNote& note = mine[mine.size() - from_end];
    if (note.iterations == static_cast<uint64_t>(runs[i].iterations)) notes[i] = &note;
  }
  return notes;
}

// Each phase's seconds, to `digits` decimals.
Json PhasesObject(const PhaseSeconds& seconds, int digits = 3) {
  Json object = Json::object();
  for (size_t i = 0; i < seconds.size(); ++i) {
    object[std::string(ToString(static_cast<Phase>(i))) + "_s"] = Fixed(seconds[i], digits);
  }
  return object;
}

}  // namespace

Json TimeSpentObject(const TimeSpent& spent) {
  Json object = {{"wall_s", Fixed(spent.wall_seconds, 3)}};
  object.update(PhasesObject(spent.seconds));
  object["other_s"] = Fixed(spent.Other(), 3);
  object["device_wait_s"] = Fixed(spent.device_wait_seconds, 3);
  if (spent.AnyAhead()) {
    Json ahead = PhasesObject(spent.ahead);
    ahead["device_wait_s"] = Fixed(spent.ahead_device_wait_seconds, 3);
    ahead["device_locks"] = spent.ahead_device_locks;
    object["ahead"] = std::move(ahead);
  }
  // The device's busy time to the microsecond: a GPU's check or warm-up takes milliseconds.
  if (spent.device_timed) {
    Json device = PhasesObject(spent.device, 6);
    device["other_s"] = Fixed(spent.device_other, 6);
    device["total_s"] = Fixed(spent.DeviceSeconds(), 6);
    if (spent.device_unmeasured > 0) device["untimed_submissions"] = spent.device_unmeasured;
    if (spent.AnyAhead()) {
      Json ahead = PhasesObject(spent.ahead_device, 6);
      ahead["other_s"] = Fixed(spent.ahead_device_other, 6);
      device["ahead"] = std::move(ahead);
    }
    object["device"] = std::move(device);
  }
  return object;
}

void JsonWriter::AddRunMembers(bool ended) {
  const Provenance provenance = RunProvenance();
  if (!provenance.overrides.empty()) {
    Json overrides = Json::object();
    for (const auto& [name, value] : provenance.overrides) overrides[name] = value;
    SetContext("overrides", std::move(overrides));
    SetContext("experiment", true);
  }
  if (!provenance.manifests.empty()) {
    Json manifests = Json::array();
    for (const ManifestSource& m : provenance.manifests) manifests.push_back({{"path", m.path}, {"sha256", m.sha256}});
    SetContext("manifest_sources", std::move(manifests));
  }
  if (const std::vector<NotedCeiling> ceilings = NotedCeilings(); !ceilings.empty()) {
    Json object = Json::object();
    for (const NotedCeiling& c : ceilings) {
      object[c.name] = {{"value", Significant(c.value, 6)}, {"unit", c.unit}, {"what", c.what}};
      // Reused from the cache file (--ceilings=reuse): how long ago it was measured.
      if (c.age_seconds >= 0) object[c.name]["reused_age_s"] = Significant(c.age_seconds, 6);
    }
    SetContext("ceilings", std::move(object));
  }
  if (ended) {
    SetContext("time_spent", TimeSpentObject(Spent()));
    // Shaders taken from the SPIR-V cache, and compiled in this run (--shader-cache).
    const SpirvCacheCounts shaders = SpirvCacheTally();
    SetContext("shader_cache", {{"mode", SpirvCacheEnabled() ? "on" : "off"},
                                {"read", shaders.read},
                                {"compiled", shaders.compiled}});
  }
  // A run that stopped (a lost device) says why; its later entries are marked "not run: ...".
  if (const std::optional<std::string> why = RunStopReason()) SetContext("stopped", *why);
}

std::vector<Json> StandardEntries(const std::vector<Run>& runs) {
  if (runs.empty()) return {};
  // A reporter of its own for each call: its text is then one call's entries, with nothing of
  // an earlier call's (the separating comma) before them.
  std::ostringstream text;
  benchmark::JSONReporter standard;
  standard.SetOutputStream(&text);
  standard.SetErrorStream(&text);
  standard.ReportRuns(runs);
  std::string list = "[";
  list.append(WithoutNonNumbers(text.str())).append("]");
  Json entries = Json::parse(list);
  return {entries.begin(), entries.end()};
}

Json EntryObject(const Record& record, const RunNote* note) {
  if (!record.described()) return nullptr;
  const Description& d = *record.description();
  Json object = {{"family", d.family},
                 {"variant", d.variant},
                 {"clock", std::string(ToString(d.clock))},
                 {"axes", AxesObject(d.axes)}};
  if (note != nullptr) {
    if (note->clock_guard > 0) object["clock_guard"] = Fixed(note->clock_guard, 4);
    object["measured"] = note->measured;
    if (note->clock_guard > 0 && !note->probed) object["probed"] = false;
    if (note->throttled) object["throttled"] = true;
    if (!note->samples.empty()) {
      Json samples = Json::array();
      for (double s : note->samples) samples.push_back(Significant(s, 7));
      object["samples_s"] = samples;
    }
    if (const std::optional<CaseNote> made = record.case_note()) {
      object["case_s"] = Fixed(made->case_seconds, 4);
      object["check_s"] = Fixed(made->check_seconds, 4);
      object["waited_s"] = Fixed(made->waited_seconds, 4);
      object["made_ahead"] = made->ahead;
    }
    if (const std::optional<WarmUpNote> warm = record.warm_up()) {
      object["warm_up_s"] = Fixed(warm->seconds, 4);
      object["warm_up_runs"] = warm->runs;
      object["warm_up_probes"] = warm->probes;
    }
    if (const std::optional<IntensityNote> n = record.intensity()) {
      object["intensity"] = {{"ops_per_element", Significant(n->ops_per_element, 6)},
                             {"unit", n->unit},
                             {"bytes_per_element", Significant(n->bytes_per_element, 6)},
                             {"memory_ceiling", n->memory_ceiling},
                             {"compute_ceiling", n->compute_ceiling},
                             {"binds", n->binds},
                             {"dispatch_share", Fixed(n->dispatch_share, 4)},
                             {"lower_bound", n->lower_bound}};
    }
  }
  return object;
}

bool JsonWriter::ReportContext(const Context& context) {
  std::ostringstream text;
  benchmark::JSONReporter standard;
  standard.SetOutputStream(&text);
  standard.SetErrorStream(&text);
  const bool go = standard.ReportContext(context);
  // Its text opens the document and the benchmarks' list: closed here, it parses whole.
  Json document = Json::parse(WithoutNonNumbers(text.str()) + "]}");
  Json own = std::move(context_);
  context_ = std::move(document["context"]);
  for (auto& [key, value] : own.items()) context_[key] = std::move(value);
  return go;
}

void JsonWriter::ReportRuns(const std::vector<Run>& runs) {
  std::vector<const Record*> records;
  for (const Run& run : runs) records.push_back(RecordOfRun(run.run_name.function_name, run.family_index));
  std::vector<std::vector<RunNote>> kept;
  const std::vector<const RunNote*> notes = NotesOf(runs, records, kept);
  std::vector<Json> entries = StandardEntries(runs);
  for (size_t i = 0; i < entries.size() && i < runs.size(); ++i) {
    Json csbench = records[i] != nullptr ? EntryObject(*records[i], notes[i]) : Json(nullptr);
    if (csbench.is_null()) {
      benchmarks_.push_back(std::move(entries[i]));
      continue;
    }
    // After the name, where a reader looks first.
    Json entry = Json::object();
    for (auto& [key, value] : entries[i].items()) {
      entry[key] = std::move(value);
      if (key == "name") entry["csbench"] = csbench;
    }
    benchmarks_.push_back(std::move(entry));
  }
}

void JsonWriter::Finalize() {
  AddRunMembers(true);
  GetOutputStream() << Text() << std::flush;
}

void JsonWriter::SetContext(const std::string& key, Json value) { context_[key] = std::move(value); }

std::string JsonWriter::Text(bool interrupted) const {
  Json document = Json::object();
  document["context"] = context_;
  if (interrupted) document["context"]["interrupted"] = true;
  document["benchmarks"] = benchmarks_;
  return document.dump(2) + "\n";
}

}  // namespace csbench
