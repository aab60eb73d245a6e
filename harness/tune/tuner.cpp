#include "harness/tune/tuner.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "harness/base/compat.hpp"
#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/base/ledger.hpp"
#include "harness/base/statistics.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/selection.hpp"
#include "harness/run/reporters.hpp"
#include "harness/tune/search.hpp"
#include "harness/tune/tune_cache.hpp"
#include "harness/tune/tune_output.hpp"
#include "harness/tune/u_test.hpp"

namespace csbench {

namespace {

// Finalists raced after the looks, the repetitions each gets before the first cut, and the most.
constexpr size_t kFinalists = 5;
constexpr size_t kFirstRaceRounds = 5;
constexpr size_t kRaceRounds = 10;
// Points measured per call of Google Benchmark by the exhaustive and random searches (a model
// proposes its own batches).
constexpr size_t kLookBatch = 16;

// One family at one domain: the space a search runs over.
struct Group {
  std::string family, domain;
  std::vector<const Record*> points;  // the benchmarks' records, in the run's order
  std::vector<std::vector<std::pair<std::string, std::string>>> coordinates;  // variant, workgroup, axes
  std::vector<SpacePoint> space;
};

std::vector<Group> GroupsOfSelection() {
  std::vector<Group> groups;
  for (size_t i = 0; i < SelectedCount(); ++i) {
    const Record* record = SelectedRecord(i);
    const Description* d = record != nullptr ? record->description() : nullptr;
    if (d == nullptr) continue;
    std::string domain;
    std::vector<std::pair<std::string, std::string>> coordinates = {{"variant", d->variant}};
    for (const Coordinate& c : d->axes) {
      if (c.axis == "domain") {
        domain = Spelled(c.value);
      } else {
        coordinates.emplace_back(c.axis, Spelled(c.value));
      }
    }
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const Group& g) { return g.family == d->family && g.domain == domain; });
    if (group == groups.end()) group = groups.insert(groups.end(), Group{.family = d->family, .domain = domain});
    group->points.push_back(record);
    SpacePoint point;
    for (const auto& [axis, value] : coordinates) point.values.push_back(axis + "=" + value);
    group->space.push_back(std::move(point));
    group->coordinates.push_back(std::move(coordinates));
  }
  return groups;
}

// What one repetition of a benchmark gave.
struct Measured {
  std::optional<double> gelems;  // none: skipped or failed
  double seconds = 0;            // per iteration
  double wall = 0;               // seconds from the call's start (or the previous report) to this one
  double samples = 0;            // the seconds of its timed samples, where the device's timestamps took them
  std::string failure;
};

// Collects each benchmark's repetition from Google Benchmark's runs, and prints one line a point.
class Collector : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    const auto now = std::chrono::steady_clock::now();
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      const Record* record = RecordOfRun(WithoutTimeSuffix(run.benchmark_name()), run.family_index);
      if (record == nullptr) continue;
      Measured m;
      m.wall = std::chrono::duration<double>(now - last_).count();
      if (compat::Skipped(run)) {
        m.failure = compat::SkipMessage(run);
      } else {
        m.seconds = run.iterations > 0 ? run.real_accumulated_time / static_cast<double>(run.iterations) : 0;
        // A device-clocked run's time is the sum of its samples' timestamps (manual time).
        const Description* d = record->description();
        if (d != nullptr && d->clock == Clock::kDevice) m.samples = run.real_accumulated_time;
        auto counter = run.counters.find("Gelem/s");
        if (counter != run.counters.end() && counter->second.value > 0) {
          m.gelems = counter->second.value;
        } else if (m.seconds > 0) {
          m.gelems = 1e-9 / m.seconds;  // no elements declared: iterations a second
        } else {
          m.failure = "no time was measured";
        }
      }
      // Kept at once: an interrupted search loses no point it had measured.
      if (on_each_) on_each_(record, m);
      got_[record] = std::move(m);
    }
    last_ = now;
  }
  void Finalize() override {}

  // Runs the benchmarks of `points` once each (one repetition) and returns what each gave;
  // `on_each` gets each as it is reported.
  std::map<const Record*, Measured> RunOnce(const std::vector<const Record*>& points,
                                            std::function<void(const Record*, const Measured&)> on_each) {
    got_.clear();
    on_each_ = std::move(on_each);
    if (points.empty()) return {};
    last_ = std::chrono::steady_clock::now();
    RunRecords(points, this);
    on_each_ = nullptr;
    for (const Record* point : points) {
      if (!got_.contains(point)) got_[point].failure = RunStopReason().value_or("it did not run");
    }
    return std::move(got_);
  }

 private:
  std::map<const Record*, Measured> got_;
  std::function<void(const Record*, const Measured&)> on_each_;
  std::chrono::steady_clock::time_point last_;
};

struct Keyed {
  TuneCache* cache = nullptr;
  const TuneSetup* setup = nullptr;
  std::map<const Record*, std::string> hashes;  // "" where none
  // The points' hashes, on every host thread (a search's batch at a time): a point's key needs its
  // shader compiled, which on one thread can take longer than the point's look itself
  // (docs/perf-notes.md, section 16).
  void HashAll(const std::vector<const Record*>& points) {
    if (cache == nullptr || !cache->usable()) return;
    std::vector<std::string> found(points.size());
    ParallelFor(points.size(), 1, [&](size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) found[k] = HashOf(*points[k]);
    });
    for (size_t k = 0; k < points.size(); ++k) hashes.emplace(points[k], found[k]);
  }
  void HashAllOnce(const std::vector<const Record*>& points) {
    std::vector<const Record*> missing;
    for (const Record* point : points) {
      if (!hashes.contains(point)) missing.push_back(point);
    }
    HashAll(missing);
  }
  static std::string HashOf(const Record& point) {
    if (!point.shader_hash) return "";
    try {
      return point.shader_hash();
    } catch (const std::exception&) {
      return "";  // a shader that does not compile: measured (and failed), never cached
    }
  }
  std::optional<TuneCacheKey> KeyOf(const Record* point) {
    if (cache == nullptr || !cache->usable()) return std::nullopt;
    auto hash = hashes.find(point);
    if (hash == hashes.end()) hash = hashes.emplace(point, HashOf(*point)).first;
    if (hash->second.empty()) return std::nullopt;
    return TuneCacheKey{.device_key = setup->device_key,
                        .driver = setup->driver,
                        .revision = setup->revision,
                        .spirv_hash = hash->second,
                        .point = point->name()};
  }
};

int64_t Now() { return static_cast<int64_t>(std::time(nullptr)); }

TunedPoint PointOf(const Group& g, size_t k, const std::vector<double>& samples) {
  TunedPoint p{.name = g.points[k]->name(), .point = g.coordinates[k], .repetitions = samples.size()};
  if (!samples.empty()) {
    p.gelems = Median(samples);
    std::tie(p.low, p.high) = MedianInterval(samples);
  }
  return p;
}

std::string Short(const Group& g, size_t k) {
  std::string text;
  for (const auto& [axis, value] : g.coordinates[k]) text += (text.empty() ? "" : " ") + axis + "=" + value;
  return text;
}

// The device's work of one stage of a group's search while it measured (TunedDeviceWork): the
// ledger's device seconds by phase, both threads together.
struct StageWork {
  PhaseSeconds phases{};
  double other = 0;  // outside every phase
  double samples = 0;
  size_t measured = 0;

  void Add(const TimeSpent& before, const TimeSpent& after, const std::map<const Record*, Measured>& got) {
    for (size_t i = 0; i < phases.size(); ++i) {
      phases[i] += after.device[i] - before.device[i] + after.ahead_device[i] - before.ahead_device[i];
    }
    other += after.device_other - before.device_other + after.ahead_device_other - before.ahead_device_other;
    for (const auto& [point, m] : got) samples += m.samples;
    measured += got.size();
  }
  TunedDeviceWork Summary() const {
    TunedDeviceWork w{.seconds = other, .samples = samples, .measured = measured};
    for (size_t i = 0; i < phases.size(); ++i) {
      w.seconds += phases[i];
      if (phases[i] > 0) w.phases.emplace_back(std::string(ToString(static_cast<Phase>(i))), phases[i]);
    }
    if (other > 0) w.phases.emplace_back("other", other);
    return w;
  }
};

// What one search has for its groups: the setup, the cache (where usable) with its keys, the
// reporter that runs the points, and the seconds the current group's calls spent measuring, with
// the device's work of its looks and of its race.
struct Tuning {
  const TuneSetup& setup;
  TuneCache* cache;  // null: every point measured, nothing stored
  Keyed keyed;
  Collector collector;
  double measuring = 0;
  StageWork looks_work, race_work;

  // Runs `points` once each (Collector::RunOnce), storing each result under `stage` ("look" or
  // "race") as it is reported, and counts the call's seconds as measuring where it ran any.
  std::map<const Record*, Measured> Measure(const std::vector<const Record*>& points, const std::string& stage) {
    const auto call = std::chrono::steady_clock::now();
    const TimeSpent before = Spent();
    std::map<const Record*, Measured> got = collector.RunOnce(points, [&](const Record* point, const Measured& m) {
      // A run the stopped run skipped is no measurement of the point; a race keeps passes only.
      if (RunStopReason() || (stage == "race" && !m.gelems)) return;
      if (std::optional<TuneCacheKey> key = keyed.KeyOf(point)) {
        cache->Store(*key, stage,
                     {.gelems = m.gelems ? std::vector<double>{*m.gelems} : std::vector<double>{},
                      .seconds = m.gelems ? std::vector<double>{m.seconds} : std::vector<double>{},
                      .min_time = setup.min_time,
                      .device_seconds = m.wall,
                      .failure = m.gelems ? "" : (m.failure.empty() ? "failed" : m.failure),
                      .measured_unix = Now()});
      }
    });
    if (!points.empty()) {
      measuring += std::chrono::duration<double>(std::chrono::steady_clock::now() - call).count();
      (stage == "race" ? race_work : looks_work).Add(before, Spent(), got);
    }
    return got;
  }
};

// The looks of one group: each point the search proposes, one repetition, taken from the cache
// where a look of the same minimum time is kept, until the budget (looks or seconds) is spent.
// look[k]: the point's Gelem/s, none where it failed; looked[k]: whether the search took it.
struct Looks {
  std::vector<std::optional<double>> look;
  std::vector<bool> looked;
};

Looks LookAt(Tuning& t, const Group& g, size_t budget, TunedDomain& result) {
  const TuneOptions& options = t.setup.options;
  std::unique_ptr<Search> search = MakeSearch(options.strategy, g.space, options.seed);
  Looks looks{.look = std::vector<std::optional<double>>(g.points.size()), .looked = std::vector<bool>(g.points.size())};
  size_t taken = 0;
  while (taken < budget && (options.budget_seconds <= 0 || t.measuring < options.budget_seconds) && !RunStopReason()) {
    const size_t most = std::min(budget - taken, options.strategy == TuneStrategy::kModel ? budget : kLookBatch);
    const std::vector<size_t> batch = search->Next(most);
    if (batch.empty()) break;
    std::vector<const Record*> to_measure;
    std::vector<size_t> measured_points;
    std::vector<const Record*> batch_points;
    for (size_t k : batch) batch_points.push_back(g.points[k]);
    t.keyed.HashAllOnce(batch_points);
    for (size_t k : batch) {
      ++taken;
      looks.looked[k] = true;
      ++result.evaluated;
      std::optional<TuneCacheKey> key = t.keyed.KeyOf(g.points[k]);
      std::optional<TuneCacheEntry> kept = key ? t.cache->Find(*key, "look") : std::nullopt;
      // A look of another minimum time is another measurement: taken again (and replaced).
      if (kept && kept->min_time == t.setup.min_time && (!kept->failure.empty() || !kept->gelems.empty())) {
        ++result.cached;
        if (kept->failure.empty()) looks.look[k] = kept->gelems.front();
        search->Tell(k, looks.look[k]);
        continue;
      }
      to_measure.push_back(g.points[k]);
      measured_points.push_back(k);
    }
    std::map<const Record*, Measured> got = t.Measure(to_measure, "look");
    for (size_t k : measured_points) {
      const Measured& m = got[g.points[k]];
      looks.look[k] = m.gelems;
      search->Tell(k, m.gelems);
    }
  }
  return looks;
}

// The finalists' race: one repetition of each in turn (so that a drift of the device's state
// falls on all alike), the first cut after kFirstRaceRounds, the rest to kRaceRounds.
struct Race {
  std::map<size_t, std::vector<double>> samples;  // by point
  std::set<size_t> racing;                        // still in the race
  std::set<size_t> failed;                        // left it failing
  size_t repetitions = 0;                         // measured in the race (not from the cache)

  // The racing point of the highest median (the first of equals).
  size_t Best() const {
    auto median = [&](size_t k) {
      auto it = samples.find(k);
      return Median(it == samples.end() || it->second.empty() ? std::vector<double>{0} : it->second);
    };
    size_t best = *racing.begin();
    for (size_t k : racing) {
      if (median(k) > median(best)) best = k;
    }
    return best;
  }
};

Race RunRace(Tuning& t, const Group& g, const std::vector<size_t>& finalists) {
  Race race{.racing = std::set<size_t>(finalists.begin(), finalists.end())};
  for (size_t k : finalists) {
    if (std::optional<TuneCacheKey> key = t.keyed.KeyOf(g.points[k])) {
      if (std::optional<TuneCacheEntry> kept = t.cache->Find(*key, "race");
          kept && kept->failure.empty() && kept->min_time == t.setup.min_time) {
        race.samples[k] = kept->gelems;
      }
    }
  }
  for (size_t round = 0; round < kRaceRounds && !race.racing.empty() && !RunStopReason(); ++round) {
    if (round == kFirstRaceRounds && race.racing.size() > 1) {
      // The first cut: a finalist the U test puts below the best at alpha leaves the race.
      const size_t best = race.Best();
      for (auto it = race.racing.begin(); it != race.racing.end();) {
        const std::optional<double> p =
            *it == best ? std::nullopt : UTestGreater(race.samples[best], race.samples[*it]);
        it = p && *p < kUTestAlpha ? race.racing.erase(it) : std::next(it);
      }
    }
    if (race.racing.size() == 1 && round >= kFirstRaceRounds) break;
    std::vector<const Record*> to_measure;
    std::vector<size_t> points;
    for (size_t k : race.racing) {
      if (race.samples[k].size() > round) continue;  // from the cache
      to_measure.push_back(g.points[k]);
      points.push_back(k);
    }
    std::map<const Record*, Measured> got = t.Measure(to_measure, "race");
    for (size_t k : points) {
      const Measured& m = got[g.points[k]];
      if (!m.gelems) {
        // A finalist that fails now (a flaky check, a lost device) leaves the race, named.
        race.failed.insert(k);
        race.racing.erase(k);
        fmt::print("  {} failed in the race: {}\n", g.points[k]->name(), m.failure);
        continue;
      }
      ++race.repetitions;
      race.samples[k].push_back(*m.gelems);
    }
  }
  return race;
}

// "  device: looks 28.0 s (samples 2.5 s; 0.18 s a look beyond its samples: check 0.05 s, ...),
// race 3.2 s (samples 0.6 s)": the device's work of the group's looks and race, and where a look's
// work beyond its samples went (its timed phase less the samples), per measured look.
void PrintDeviceWork(const TunedDomain& result) {
  if (!result.looks_device || !result.race_device) {
    fmt::print("  device work not timed (the queue has no timestamps, or --timer=host)\n");
    return;
  }
  const TunedDeviceWork& looks = *result.looks_device;
  const TunedDeviceWork& race = *result.race_device;
  std::string where;
  if (looks.measured > 0) {
    for (const auto& [phase, seconds] : looks.phases) {
      const double beyond = (phase == ToString(Phase::kTimed) ? seconds - looks.samples : seconds) /
                            static_cast<double>(looks.measured);
      if (beyond > 0) where += fmt::format("{}{} {}", where.empty() ? ": " : ", ", phase, ShortSeconds(beyond));
    }
  }
  fmt::print("  device: looks {} (samples {}; {} a look beyond its samples{}), race {} (samples {})\n",
             ShortSeconds(looks.seconds), ShortSeconds(looks.samples), ShortSeconds(looks.BeyondSamplesEach()),
             where, ShortSeconds(race.seconds), ShortSeconds(race.samples));
}

// The group's device work, where the run's submissions are timed.
void NoteDeviceWork(const Tuning& t, TunedDomain& result) {
  if (!Spent().device_timed) return;
  result.looks_device = t.looks_work.Summary();
  result.race_device = t.race_work.Summary();
}

// The group's closing lines: what was looked at and raced, the winner, the points tied with it,
// the spread of the looks and the device's work.
void PrintOutcome(const Group& g, const TunedDomain& result, size_t winner, size_t finalists,
                  size_t race_repetitions, double measuring, double wall) {
  const size_t full_race = finalists * kRaceRounds;
  fmt::print("  looked at {} of {} points ({} from the cache, {} failed their check or could not run); raced {} "
             "({} repetitions, {} fewer than racing each to {}); measuring {:.1f} s of {:.1f} s\n",
             result.evaluated, result.space, result.cached, result.failed, finalists, race_repetitions,
             full_race > race_repetitions ? full_race - race_repetitions : 0, kRaceRounds, measuring, wall);
  fmt::print("  winner  {}  {:.4g} Gelem/s [{:.4g}, {:.4g}] over {} repetitions\n", Short(g, winner),
             result.winner.gelems, result.winner.low, result.winner.high, result.winner.repetitions);
  for (const TunedPoint& p : result.tied) {
    const size_t k = static_cast<size_t>(
        std::find_if(g.points.begin(), g.points.end(), [&](const Record* r) { return r->name() == p.name; }) -
        g.points.begin());
    fmt::print("  tied    {}  {:.4g} Gelem/s [{:.4g}, {:.4g}], {}\n", Short(g, k), p.gelems, p.low, p.high,
               p.p_vs_winner ? fmt::format("U test p = {:.3g}", *p.p_vs_winner) : "too few repetitions for the U test");
  }
  if (result.tied.empty()) fmt::print("  no runner-up is tied with it (U test, alpha {})\n", kUTestAlpha);
  fmt::print("  spread of the looks: worst {:.4g}, median {:.4g}, best {:.4g} Gelem/s ({:.2f}x from worst to best)\n",
             result.worst, result.median, result.best, result.worst > 0 ? result.best / result.worst : 0.0);
  PrintDeviceWork(result);
  std::fflush(stdout);
}

// One group searched: its looks, the race of the best, the winner and the points tied with it.
// false where no point passed its check or every finalist failed in the race.
bool TuneGroup(Tuning& t, const Group& g, TuneReport& report) {
  const TuneOptions& options = t.setup.options;
  const auto started = std::chrono::steady_clock::now();
  t.measuring = 0;
  t.looks_work = {};
  t.race_work = {};
  TunedDomain result{.family = g.family, .domain = g.domain, .space = g.points.size()};
  result.strategy = ToString(options.strategy);
  const size_t budget =
      std::min(g.points.size(), options.budget_evaluations > 0
                                    ? static_cast<size_t>(options.budget_evaluations)
                                    : DefaultBudget(options.strategy, g.points.size(), kFinalists * kRaceRounds));
  fmt::print("tune {}/domain{}: {} search over {} points, {} looks{}\n", g.family, g.domain, result.strategy,
             g.points.size(), budget,
             options.budget_seconds > 0 ? fmt::format(" or {} s of measuring", options.budget_seconds) : "");
  std::fflush(stdout);
  const Looks looks = LookAt(t, g, budget, result);
  // The spread of the looks, and the finalists: the best looks.
  std::vector<std::pair<double, size_t>> ranked;
  std::vector<double> values;
  for (size_t k = 0; k < g.points.size(); ++k) {
    if (!looks.looked[k]) continue;
    if (!looks.look[k]) {
      ++result.failed;
      continue;
    }
    ranked.emplace_back(*looks.look[k], k);
    values.push_back(*looks.look[k]);
    result.looked.push_back(PointOf(g, k, {*looks.look[k]}));
  }
  if (ranked.empty()) {
    fmt::print("  no point passed its check: nothing to race ({} looked at, {} failed)\n", result.evaluated,
               result.failed);
    result.device_seconds = t.measuring;
    NoteDeviceWork(t, result);
    PrintDeviceWork(result);
    report.domains.push_back(std::move(result));
    return false;
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  result.worst = *std::min_element(values.begin(), values.end());
  result.best = *std::max_element(values.begin(), values.end());
  result.median = Median(values);
  std::vector<size_t> finalists;
  for (size_t i = 0; i < std::min(kFinalists, ranked.size()); ++i) finalists.push_back(ranked[i].second);
  Race race = RunRace(t, g, finalists);
  if (race.racing.empty()) {
    fmt::print("  every finalist failed in the race\n");
    result.device_seconds = t.measuring;
    NoteDeviceWork(t, result);
    PrintDeviceWork(result);
    report.domains.push_back(std::move(result));
    return false;
  }
  const size_t winner = race.Best();
  result.winner = PointOf(g, winner, race.samples[winner]);
  for (size_t k : finalists) {
    if (race.failed.contains(k)) continue;
    TunedPoint p = PointOf(g, k, race.samples[k]);
    if (k != winner) {
      p.p_vs_winner = UTestGreater(race.samples[winner], race.samples[k]);
      if (!p.p_vs_winner || *p.p_vs_winner >= kUTestAlpha) result.tied.push_back(p);
    }
    result.finalists.push_back(std::move(p));
  }
  result.device_seconds = t.measuring;
  NoteDeviceWork(t, result);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  PrintOutcome(g, result, winner, finalists.size(), race.repetitions, t.measuring, wall);
  report.domains.push_back(std::move(result));
  return true;
}

}  // namespace

int RunTune(const TuneSetup& setup) {
  const TuneOptions& options = setup.options;
  std::optional<TuneCache> cache;
  if (options.cache != "off") {
    cache.emplace(options.cache.empty() ? TuneCache::DefaultPath() : std::filesystem::path(options.cache));
    if (!cache->usable()) fmt::print(stderr, "csbench: tune cache unusable, every point is measured: {}\n", cache->problem());
  }
  TuneCache* usable = cache && cache->usable() ? &*cache : nullptr;
  Tuning tuning{.setup = setup, .cache = usable, .keyed = Keyed{.cache = usable, .setup = &setup}};
  TuneReport report{.device_key = setup.device_key,
                    .device_name = setup.device_name,
                    .driver = setup.driver,
                    .revision = setup.revision};
  bool any_empty = false;
  for (const Group& g : GroupsOfSelection()) {
    if (!TuneGroup(tuning, g, report)) any_empty = true;
  }
  int code = any_empty ? 1 : 0;
  try {
    if (!options.out.empty()) WriteTuneJson(report, options.out);
    if (!options.header.empty()) WriteTuneHeader(report, options.header);
  } catch (const std::exception& e) {
    fmt::print(stderr, "csbench: {}\n", e.what());
    code = 2;
  }
  if (const std::optional<std::string> why = RunStopReason()) {
    fmt::print(stderr, "csbench: the search stopped: {}\n", *why);
    code = 1;
  }
  return code;
}

}  // namespace csbench
