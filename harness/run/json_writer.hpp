// The run's JSON report: one writer, one document. Google Benchmark's own JSON reporter writes
// each run's standard members (so that every key it writes, on each library version, stays
// where scripts read it); this writer takes them as data, adds each benchmark's record
// (harness/measure/record.hpp) as the entry's "csbench" object and the run's own members to the
// context (provenance, time spent, ceilings), and prints the whole document through
// nlohmann/json. The document is kept in memory, complete at every moment, so that an
// interrupted run writes what finished.
#pragma once

#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace csbench {

class Record;
struct RunNote;
struct TimeSpent;

class JsonWriter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  // Prints the document to the output stream (a display reporter); the file is written by the
  // run (harness/run/reporters.hpp), from Text().
  void Finalize() override;

  // A member of the context, replacing one of the same key.
  void SetContext(const std::string& key, nlohmann::ordered_json value);
  // The run's own members of the context: what changed what runs ("overrides", "experiment",
  // "manifest_sources"; harness/base/provenance.hpp) and the ceilings measured so far; with
  // `ended`, the run's "time_spent" (harness/base/ledger.hpp).
  void AddRunMembers(bool ended);
  // The document as text, with "interrupted": true in its context where `interrupted`.
  std::string Text(bool interrupted = false) const;

 private:
  nlohmann::ordered_json context_ = nlohmann::ordered_json::object();
  nlohmann::ordered_json benchmarks_ = nlohmann::ordered_json::array();
};

// The "csbench" object of one entry: the record's description, with `note`'s members (a timed
// loop's clock guard, measurements, samples), the case's making and the declared intensity where
// the record has them. Null where the benchmark was never described.
nlohmann::ordered_json EntryObject(const Record& record, const RunNote* note);

// {"wall_s": 12.3, "case_s": 1.2, ..., "other_s": 0.4, "device_wait_s": 0.1, "ahead": {"case_s": 20.1,
// ..., "device_wait_s": 3.2, "device_locks": 1234}}; "ahead" only where another thread spent time.
nlohmann::ordered_json TimeSpentObject(const TimeSpent& spent);

// Google Benchmark's own members of `runs`, one object per run, in order, as its JSON reporter
// writes them.
std::vector<nlohmann::ordered_json> StandardEntries(const std::vector<benchmark::BenchmarkReporter::Run>& runs);

}  // namespace csbench
