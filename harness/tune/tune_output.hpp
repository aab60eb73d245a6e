// The tuner's results, written for people and applications: --tune-out, a JSON file that gathers
// the results of every device and run written to it, and --tune-header, a C/C++ header of each
// family's winners that an application compiles in. Each file is written whole or not at all.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace csbench {

struct TunedPoint {
  std::string name;  // the benchmark's name
  // (axis, value) in the name's order: "variant", "workgroup" ("16x8"), then each axis ("TM",
  // "4"), "subgroup_size".
  std::vector<std::pair<std::string, std::string>> point;
  double gelems = 0;         // the median over its repetitions, Gelem/s
  double low = 0, high = 0;  // its 95% interval of the median (MedianInterval)
  size_t repetitions = 0;
  std::optional<double> p_vs_winner;  // the U test's p that the winner is faster (none for the winner)
};

// The device's work of one stage of a search (its looks, or its race): the device's busy seconds
// while it measured (every phase, the second thread's included: the time ledger's, from the
// timestamps around each submission), the seconds of the timed samples its runs reported (their
// own timestamps), and the points it measured (those from the cache not).
struct TunedDeviceWork {
  double seconds = 0;
  double samples = 0;
  size_t measured = 0;
  // The busy seconds by phase ("check", "timed", ...), in the ledger's order, those with any.
  std::vector<std::pair<std::string, double>> phases;
  // The device's work a measured point cost beyond its samples: (seconds - samples) / measured;
  // 0 where none was measured.
  double BeyondSamplesEach() const { return measured > 0 ? (seconds - samples) / static_cast<double>(measured) : 0; }
};

struct TunedDomain {
  std::string family;
  std::string domain;                      // as "2048x2048"
  TunedPoint winner;                       // an empty name where no point passed its check
  std::vector<TunedPoint> tied;            // runners-up statistically tied with the winner
  std::vector<TunedPoint> finalists;       // every point raced, the winner and the tied included
  double worst = 0, median = 0, best = 0;  // over every evaluated point's first look, Gelem/s
  size_t evaluated = 0, space = 0, failed = 0, cached = 0;
  std::string strategy;
  double device_seconds = 0;  // the wall seconds its measuring took (device and host together)
  // What the device did for its looks and its race; none where the run's submissions are not
  // timed (a queue without timestamps, --timer=host).
  std::optional<TunedDeviceWork> looks_device, race_device;
  std::vector<TunedPoint> looked;  // every evaluated point's first look (one repetition), for a plot
};

struct TuneReport {
  std::string device_key, device_name, driver, revision;
  std::vector<TunedDomain> domains;
};

// The 95% interval of the median of `values`, distribution-free: the order statistics whose ranks
// the binomial distribution of B(n, 1/2) puts at least 95% of the median's chance between
// (x(k), x(n+1-k) for the largest k with P(B < k) <= 2.5%). With fewer than 6 values no such k
// exists and the interval is the minimum and maximum; with none it is (0, 0).
std::pair<double, double> MedianInterval(std::vector<double> values);

// The version of the --tune-out format ("csbench_tune").
inline constexpr int kTuneJsonVersion = 1;

// --tune-out: {"csbench_tune": 1, "devices": {<device key>: {"device", "driver", "revision",
// "families": {<family>: {<domain>: {"winner", "tied", "finalists", "spread": {"worst", "median",
// "best", "evaluated", "space", "failed", "cached"}, "strategy", "device_s", "device_work",
// "driver", "revision", "looked"}}}}}}. "device_work" is {"looks": W, "race": W}, W being
// {"device_s", "samples_s", "measured", "beyond_samples_each_s", "phases": {<phase>_s: seconds}}
// (TunedDeviceWork), or null where the device's work was not timed. A point is {"name", "point":
// {axis: value as text, in the name's order}, "gelems", "low", "high", "repetitions",
// "p_vs_winner" (where there is one)}; a look only
// {"name", "point", "gelems"}; a domain where no point passed its check has "winner": null. The
// device's "driver" and "revision" are the last run's; a domain's, the run's that tuned it.
// An existing file of this format is merged: other device keys, and the other families and
// domains of this one, are kept; this run's domains replace theirs. An existing file that is not
// of this format throws Error naming the file, and is left as it is; so does one that cannot be
// written.
void WriteTuneJson(const TuneReport& report, const std::filesystem::path& path);

// --tune-header: a header that compiles as C11 and as C++17. Per family, a struct of the point's
// fields (device_key; domain_x, domain_y, domain_z; each axis as an int, long long or double
// where every winner's value is a number, else a const char*, named after the axis made an
// identifier; the workgroup as wg_x, wg_y, wg_z; gelems) and a static const table of each
// domain's winner, with its row count as an enum constant. Names from the report are made
// identifiers and unique, strings and comments escaped. Throws Error where it cannot be written.
void WriteTuneHeader(const TuneReport& report, const std::filesystem::path& path);

}  // namespace csbench
