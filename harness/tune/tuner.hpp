// `bench --tune`: per family and domain of the run's selection, a search over its points (every
// variant x workgroup x axis value the selection holds) for the fastest, with the rigour of a
// whole run: every point looked at is a registered benchmark, so its case is checked against
// its reference before it is timed and a point that fails is never a candidate; the best few of
// the looks are then raced, one repetition each in turn, until the U test separates them or the
// race ends; the winner comes with its interval, the runners-up the test cannot tell from it,
// and the spread of every look. Every measurement is kept in the tune cache (tune_cache.hpp), so
// an interrupted or widened search resumes instead of starting over.
#pragma once

#include <functional>
#include <string>

#include "harness/base/options.hpp"

namespace csbench {

struct TuneSetup {
  TuneOptions options;
  double min_time = 0.1;  // seconds, the run's --benchmark_min_time
  // The cache's key besides the point's name and the SPIR-V it runs, which each point's record
  // tells (Record::shader_hash; a point whose record cannot tell is measured and never cached).
  std::string device_key, device_name, driver, revision;
};

// Searches the selected benchmarks (registered with Google Benchmark already) family by family
// and domain by domain, prints each winner, writes --tune-out and --tune-header, and returns the
// process's exit code: 0; 1 where a family and domain had no point that passed its check; 2 where
// an output file could not be written.
int RunTune(const TuneSetup& setup);

}  // namespace csbench
