// csbench: compute-shader variants measured through Vulkan, each checked against its CPU
// reference first. Google Benchmark's flags apply; csbench's own are in OptionsHelp().
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "bench/families.hpp"
#include "bench/manifest.hpp"
#include "harness/base/error.hpp"
#include "harness/base/host.hpp"
#include "harness/base/revision.hpp"
#include "harness/manifest/manifest.hpp"
#include "harness/measure/ceilings.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/measure/selection.hpp"
#include "harness/run/launcher.hpp"
#include "harness/run/report.hpp"
#include "harness/run/reporters.hpp"
#include "harness/run/run_flags.hpp"
#include "harness/tune/tuner.hpp"
#include "harness/vulkan/clock_keep.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/device_choice.hpp"
#include "harness/vulkan/spirv_cache.hpp"

namespace {

// Repetitions of a device's default set when --benchmark_repetitions is not given, and the
// minimum time of each when --benchmark_min_time is not given either.
constexpr const char* kDefaultRepetitions = "3";
constexpr const char* kDefaultRepetitionMinTime = "0.05" CSBENCH_MIN_TIME_UNIT;

void PrintHelp() {
  benchmark::PrintDefaultHelp();
  fmt::print("\n{}", csbench::OptionsHelp());
}

int ListDevicesCommand() {
  try {
    for (const csbench::DeviceInfo& d : csbench::ListDevices()) {
      fmt::print("{}: {}\n   type {}, driver {} ({}), Vulkan {}, vendor 0x{:04x} device 0x{:04x}\n"
                 "   subgroup size {}, timestamp period {} ns, {} valid timestamp bits on queue family {}\n",
                 d.index, d.name, d.type, d.driver_name, d.driver_info, d.ApiVersionString(), d.vendor_id,
                 d.device_id, d.subgroup_size, d.timestamp_period_ns, d.timestamp_valid_bits, d.queue_family);
    }
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "csbench: cannot list Vulkan devices: {}\n", e.what());
    return 1;
  }
}

// Whether the benchmarks run on the host's CPU: a CPU Vulkan device (lavapipe), or no Vulkan
// context at all (the plain_loop backend).
bool OnCpu(const csbench::Context* context) { return csbench::RunDeviceOf(context).kind != csbench::DeviceKind::kGpu; }

// The run's selection. With --manifest, the manifests' benchmarks only (all of them, or those the
// user's filter matches), the built-in families' too with --with-built-ins. Otherwise the user's
// filter, else the device's default set, which the families' descriptors choose: the quick set on
// the CPU, everything but the host's Gray-Scott loops (and what only the quick set needs) on a GPU.
csbench::Selection ChooseSelection(const csbench::RunFlags& flags, const csbench::Options& options,
                                   const csbench::Context* context, const std::deque<csbench::manifest::Loaded>& manifests) {
  csbench::Selection selection;
  const csbench::RunDevice device = csbench::RunDeviceOf(context);
  std::set<std::string, std::less<>> manifest_names;
  for (const auto& loaded : manifests) {
    for (const csbench::Offered& o : csbench::OfferedBy(loaded.family, options, device)) manifest_names.insert(o.name);
  }
  if (flags.filter) {
    selection.filter.emplace(*flags.filter);
    if (!manifests.empty() && !options.with_built_ins) selection.among = std::move(manifest_names);
    return selection;
  }
  auto& names = selection.default_set.emplace(std::move(manifest_names));
  if (manifests.empty() || options.with_built_ins) {
    for (std::string& name : csbench::DefaultSet(options, device)) names.insert(std::move(name));
  }
  return selection;
}

// One run per device of --device=all or a list (harness/run/launcher.hpp); exit code 2 for a list
// that names nothing or output files that would collide.
int RunOnSeveralDevices(const std::vector<std::string>& command_line, const csbench::Options& options,
                        const csbench::RunFlags& flags) {
  std::vector<csbench::DeviceInfo> chosen;
  try {
    chosen = csbench::ChooseDevices(csbench::ListDevices(), options.device);
    csbench::CheckOutputsDiffer(flags.out, chosen);
  } catch (const csbench::UsageError& e) {
    fmt::print(stderr, "csbench: {}\n", e.message);
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "csbench: {}\n", e.what());
    return 2;
  }
  return csbench::RunOnEachDevice(command_line, chosen, options.parallel);
}

// The closing lines: what failed and what the device could not run, each named.
void PrintSummary(const csbench::RunSummary& summary) {
  const auto& skipped = csbench::SkippedFamilies();
  if (!skipped.empty()) {
    fmt::print(stderr, "csbench: {} famil{} skipped, not registered (exit code 1):\n", skipped.size(),
               skipped.size() == 1 ? "y" : "ies");
    for (const csbench::SkippedFamily& f : skipped) fmt::print(stderr, "  {}: {}\n", f.family, f.why);
  }
  if (!summary.unsupported.empty()) {
    fmt::print(stderr, "csbench: {} benchmark(s) skipped, not supported by this device:\n", summary.unsupported.size());
    for (const auto& [name, why] : summary.unsupported) fmt::print(stderr, "  {}: {}\n", name, why);
  }
  if (!summary.failed.empty()) {
    fmt::print(stderr, "csbench: {} benchmark(s) FAILED (exit code 1):\n", summary.failed.size());
    for (const auto& [name, why] : summary.failed) fmt::print(stderr, "  {}: {}\n", name, why);
  }
}

// Runs `step`; a bad manifest or flag (ManifestError, UsageError) is printed as one line and
// gives false, for the run's exit code 2.
template <typename Step>
bool UsageChecked(Step&& step) {
  try {
    step();
    return true;
  } catch (const csbench::ManifestError& e) {
    fmt::print(stderr, "csbench: {}\n", e.message);
  } catch (const csbench::UsageError& e) {
    fmt::print(stderr, "csbench: {}\n", e.message);
  }
  return false;
}

// The command line as the run takes it: csbench's options and run flags taken out, and the
// arguments left for Google Benchmark with csbench's defaults for repetitions and minimum time.
struct Invocation {
  std::vector<std::string> command_line;  // as given, for the runs over several devices
  std::vector<std::string> args;          // Google Benchmark's
  csbench::Options options;
  csbench::RunFlags flags;
  std::string repetitions;  // of each benchmark, as Google Benchmark will take them
};

// The options and flags of the command line, and Google Benchmark's arguments with csbench's
// defaults; throws UsageError for a bad option.
Invocation ReadCommandLine(int argc, char** argv) {
  Invocation run;
  run.command_line.assign(argv, argv + argc);
  run.args = run.command_line;
  run.options = csbench::ParseOptions(run.args);
  // Before any shader is compiled: a manifest's are compiled as it loads.
  csbench::SetSpirvCacheEnabled(run.options.shader_cache);
  run.flags = csbench::TakeRunFlags(run.args);
  // A device's default set (no --benchmark_filter, no --manifest) runs each benchmark
  // kDefaultRepetitions times unless --benchmark_repetitions says otherwise: scripts/findings.py
  // needs 3 repetitions to measure a spread, and with one it leaves undecided every claim that
  // an assumed +-10% could turn. Google Benchmark finds the iteration count on the first
  // repetition only; each further one costs about the minimum time.
  for (const std::string& a : run.args) {
    if (a.starts_with("--benchmark_repetitions=")) run.repetitions = a.substr(a.find('=') + 1);
  }
  const bool default_repetitions = run.repetitions.empty() && !run.flags.filter && run.options.manifests.empty();
  if (default_repetitions) {
    run.repetitions = kDefaultRepetitions;
    run.args.insert(run.args.begin() + 1, "--benchmark_repetitions=" + run.repetitions);
  }
  if (run.repetitions.empty()) run.repetitions = "1";  // Google Benchmark's default
  // csbench's default minimum time is shorter than Google Benchmark's 0.5 s: a GPU sample is a
  // batch of at least 2 ms timed by the device's clock, so 0.1 s is 50 samples or more, and the
  // whole suite stays within minutes. The default set's repetitions take half that each (25
  // samples or more, 75 in all), so that three cost a GPU about what one of 0.1 s did.
  // --benchmark_min_time overrides both.
  if (!run.flags.min_time_given) {
    run.flags.min_time = default_repetitions ? kDefaultRepetitionMinTime : csbench::kDefaultMinTime;
    run.args.insert(run.args.begin() + 1, std::string("--benchmark_min_time=") + run.flags.min_time);
  }
  return run;
}

// Why --tune cannot run with the rest of the command line, or null where it can.
const char* TuneRefusal(const Invocation& run) {
  // A search picks its points and repetitions itself, and writes its results its own way.
  if (run.options.manifests.empty() && !run.flags.filter) {
    return "--tune searches the points of a selection: give --manifest, or --benchmark_filter for built-in "
           "benchmarks";
  }
  if (run.repetitions != "1") {
    return "--tune races its finalists with repetitions of its own: leave --benchmark_repetitions out";
  }
  if (!run.flags.out.empty()) {
    return "--tune writes its results with --tune-out (and --tune-header), not --benchmark_out";
  }
  if (run.options.device == "all" || run.options.device.find(',') != std::string::npos) {
    return "--tune searches one device at a time: give --device one index or name";
  }
  return nullptr;
}

// Users' manifests, loaded (and their shaders compiled and checked against their reflection)
// before any device work, and --axis applied to them: a bad one is a usage error, named with its
// file, key and line. Throws ManifestError or UsageError.
void ReadManifests(const csbench::Options& options, std::deque<csbench::manifest::Loaded>& manifests) {
  for (csbench::Manifest& m : csbench::LoadManifests(options.manifests)) {
    for (const std::string& note : m.notes) fmt::print(stderr, "csbench: note: {}\n", note);
    for (const csbench::Declared& d : csbench::Declarations()) {
      if (d.name == m.name) {
        throw csbench::ManifestError{fmt::format("{}: [family].name: '{}' is a built-in family's name; choose "
                                                 "another (it begins every benchmark's name)",
                                                 m.path.string(), m.name)};
      }
    }
    csbench::manifest::Adopt(manifests, std::move(m));
  }
  // --axis: each names an axis of a manifest, whose values it replaces for this run.
  csbench::manifest::OverrideAxes(manifests, options.axes);
}

// The Vulkan device the options choose, or null for the plain_loop backend (asked for, or no
// usable device). A --device that names nothing is a usage error: exit code 2.
std::variant<std::unique_ptr<csbench::Context>, int> OpenDevice(const csbench::Options& options) {
  if (options.backend != csbench::Backend::kVulkan) {
    fmt::print(stderr, "csbench: --backend=plain_loop; running the plain_loop benchmarks only\n");
    return std::unique_ptr<csbench::Context>();
  }
  try {
    return std::make_unique<csbench::Context>(options);
  } catch (const std::exception& e) {
    // A --device that names nothing is a usage error; a machine without Vulkan is not.
    if (!options.device.empty()) {
      fmt::print(stderr, "csbench: {}\n", e.what());
      return 2;
    }
    fmt::print(stderr, "csbench: no usable Vulkan device ({}); running the plain_loop benchmarks only\n", e.what());
    return std::unique_ptr<csbench::Context>();
  }
}

// How the run measures on its device: the ceilings' cache, the samples kept, the minimum sample
// time and whether cases are made ahead; each recorded in the JSON's context.
void SetUpMeasuring(const csbench::Context* context, const Invocation& run) {
  // The ceilings' cache file: written by every run, read by --ceilings=reuse and by
  // --ceilings=auto for a day: every ceiling on a GPU, only the sizes on a CPU device, whose rates
  // move with the host's load (harness/measure/ceilings.hpp, docs/measurement.md). The clock probe's kept best sits
  // beside it, under the same key (harness/vulkan/clock_keep.hpp).
  if (context != nullptr) {
    const std::string key = csbench::DeviceKey(context);
    const std::string driver = std::to_string(context->info().driver_version);
    const csbench::CeilingsMode mode = run.options.ceilings;
    const bool gpu = context->info().type != "cpu";
    const bool automatic = mode == csbench::CeilingsMode::kAuto;
    csbench::SetCeilingsCache({.path = csbench::CeilingsCachePath(key),
                               .device_key = key,
                               .driver = driver,
                               .revision = csbench::Revision(),
                               .reuse = mode == csbench::CeilingsMode::kReuse || (automatic && gpu),
                               .reuse_sizes = automatic,
                               .max_age_seconds = automatic ? csbench::kAutoReuseSeconds : 0});
    benchmark::AddCustomContext("ceilings_mode", automatic ? "auto"
                                                 : mode == csbench::CeilingsMode::kReuse ? "reuse"
                                                                                         : "measure");
    csbench::SetClockKeep({.path = csbench::ClockKeepPath(key),
                           .key = {.device_key = key, .driver = driver, .revision = csbench::Revision()}});
  }
  csbench::KeepSamples(run.options.samples);
  // A device-timed call samples until its samples add up to the minimum time (harness/measure/measure.hpp).
  csbench::SetMinSampleSeconds(std::stod(run.flags.min_time));
  // Cases made ahead on a second thread on a GPU timed by its timestamps (harness/measure/measure.hpp);
  // not on a CPU device, whose kernels run on the cores the making would take (lavapipe's timed
  // work a third slower, docs/perf-notes.md, section 31). CSBENCH_PREFETCH=0 turns it off (for a
  // run that compares the two), =1 on (for a test on a CPU device).
  const char* prefetch_variable = std::getenv("CSBENCH_PREFETCH");
  const std::string prefetch_env = prefetch_variable != nullptr ? prefetch_variable : "";
  const bool prefetch = prefetch_env == "1" || (prefetch_env != "0" && context != nullptr &&
                                                context->info().type != "cpu" && context->gpu_timer());
  csbench::EnablePrefetch(prefetch);
  if (context != nullptr) benchmark::AddCustomContext("prefetch", prefetch ? "on" : "off");
}

// The manifests' families registered (each whole or not at all). A value of a manifest that is
// no use at a point is the manifest's error: false, for exit code 2, before anything runs.
// Anything else that stops a family's registration skips that family (SkipFamily).
bool RegisterManifestFamilies(csbench::Suite& suite, const csbench::Options& options,
                              const std::deque<csbench::manifest::Loaded>& manifests) {
  std::string paths;
  for (const std::string& p : options.manifests) paths += (paths.empty() ? "" : ",") + p;
  benchmark::AddCustomContext("manifests", paths);
  if (suite.context == nullptr) {
    fmt::print(stderr, "csbench: a manifest's family runs on a Vulkan device only (it has no plain loop), and this "
               "run has none\n");
    return false;
  }
  for (const auto& loaded : manifests) {
    try {
      csbench::FamilyRegistration whole;
      csbench::manifest::Register(suite, loaded);
      whole.Commit();
    } catch (const csbench::ManifestError& e) {
      fmt::print(stderr, "csbench: {}\n", e.message);
      return false;
    } catch (const std::exception& e) {
      csbench::SkipFamily(loaded.family.name, e.what());
    }
  }
  return true;
}

// The run's selection in the JSON's context, and on a default set one line saying what it holds.
void AnnounceSelection(const Invocation& run, const csbench::Context* context) {
  const bool default_set = !run.flags.filter;
  const bool manifests = !run.options.manifests.empty();
  if (default_set && manifests) {
    benchmark::AddCustomContext("selection", run.options.with_built_ins
                                                 ? "the manifests' families and the default set"
                                                 : "the manifests' families");
  } else if (manifests && !run.options.with_built_ins) {
    benchmark::AddCustomContext("selection", "--benchmark_filter=" + *run.flags.filter + " among the manifests' benchmarks");
  } else if (default_set && OnCpu(context)) {
    benchmark::AddCustomContext("selection", "quick default set");
    fmt::print(stderr, "csbench: {} is a CPU device: running the quick default set, {} of {} benchmarks "
               "(--benchmark_filter=all runs every one)\n",
               context ? context->info().name : std::string("the plain_loop backend"), csbench::SelectedCount(),
               csbench::OfferedCount());
  } else if (default_set) {
    benchmark::AddCustomContext("selection", "default set");
    fmt::print(stderr, "csbench: the default set, {} of {} benchmarks: the host CPU's Gray-Scott loops "
               "(run_simulation/plain_loop) run with --benchmark_filter=all or a filter naming them\n",
               csbench::SelectedCount(), csbench::OfferedCount());
  } else {
    benchmark::AddCustomContext("selection", "--benchmark_filter=" + *run.flags.filter);
  }
}

// The cold rotation's footprint, from the device's last-level cache (measured once, before the
// first case is made: never beside a timed loop), in the JSON's context.
void MeasureColdRotation(csbench::Context& context) {
  try {
    const csbench::ColdCache& cold = csbench::MeasuredColdCache(context);
    const char* reused = cold.reused ? " (reused, --ceilings=reuse)" : "";
    benchmark::AddCustomContext(
        "cold_rotation",
        cold.cache_bytes > 0
            ? fmt::format("inputs rotate over {} MiB of copies; the device's last-level cache, as its copies see "
                          "it: {} MiB{}",
                          cold.footprint_bytes >> 20, cold.cache_bytes >> 20, reused)
            : fmt::format("inputs rotate over {} MiB of copies; the device's copies showed no cache faster than "
                          "memory{}",
                          cold.footprint_bytes >> 20, reused));
  } catch (const std::exception& e) {
    fmt::print(stderr, "csbench: the last-level cache could not be measured ({}); inputs rotate over {} MiB\n",
               e.what(), csbench::kRooflineBytes >> 20);
  }
}

// The run's exit code once its benchmarks have run and the device is gone: 1 where the run
// stopped, a benchmark failed or a family was skipped; 3 for validation messages.
int ExitCode(const csbench::RunSummary& summary, const csbench::Options& options) {
  PrintSummary(summary);
  if (const std::optional<std::string> why = csbench::RunStopReason()) {
    fmt::print(stderr, "csbench: the run stopped: {}; every benchmark after it is marked not run (exit code 1)\n",
               *why);
    return 1;
  }
  if (options.validation && csbench::ValidationMessages() > 0) {
    fmt::print(stderr, "csbench: {} validation messages\n", csbench::ValidationMessages());
    return 3;
  }
  return summary.failed.empty() && csbench::SkippedFamilies().empty() ? 0 : 1;
}

// The run, stage by stage: the command line, the manifests, the device, the selection and the
// families' registration, then the benchmarks (or the tuner's search) and the exit code.
int Main(int argc, char** argv) {
  // Large host buffers in transparent huge pages where the kernel gives them only on request: may
  // run this program again with glibc's malloc told to ask (harness/base/host.hpp).
  csbench::AskForHugePages(argv);
  // Before any library starts a thread: every thread then leaves SIGINT and SIGTERM to the one
  // that writes what finished.
  csbench::HandleInterrupts();
  Invocation run;
  if (!UsageChecked([&] { run = ReadCommandLine(argc, argv); })) return 2;
  const csbench::Options& options = run.options;
  csbench::RunFlags& flags = run.flags;
  std::vector<char*> rest;
  for (auto& a : run.args) rest.push_back(a.data());
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data(), &PrintHelp);
  if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 2;
  if (options.list_devices) return ListDevicesCommand();
  if (const char* why = options.tune.enabled ? TuneRefusal(run) : nullptr) {
    fmt::print(stderr, "csbench: {}\n", why);
    return 2;
  }
  // The users' manifests, read and built into families: they live as long as the run.
  std::deque<csbench::manifest::Loaded> manifests;
  if (!UsageChecked([&] { ReadManifests(options, manifests); })) return 2;
  if (options.backend == csbench::Backend::kVulkan && csbench::NamesSeveralDevices(options.device)) {
    return RunOnSeveralDevices(run.command_line, options, flags);
  }

  auto device = OpenDevice(options);
  if (const int* code = std::get_if<int>(&device)) return *code;
  std::unique_ptr<csbench::Context> context = std::move(std::get<std::unique_ptr<csbench::Context>>(device));

  // "{device}" and "{device_key}" in the output file's name (one file per device of a run over
  // several) become this run's device: its index and key, or "plain_loop" and the key of the
  // plain_loop backend's run (the host CPU's name).
  const auto run_context = csbench::RunContext(context.get(), options);
  flags.out = csbench::ExpandDevicePlaceholders(flags.out, context ? std::to_string(context->info().index) : "plain_loop",
                                                csbench::DeviceKey(context.get()));
  if (!flags.out.empty() && !std::ofstream(flags.out, std::ios::app)) {
    fmt::print(stderr, "csbench: --benchmark_out={}: cannot write that file\n", flags.out);
    return 2;
  }
  SetUpMeasuring(context.get(), run);
  auto suite = std::make_unique<csbench::Suite>();
  suite->context = context.get();
  suite->options = options;
  if (context == nullptr) suite->options.backend = csbench::Backend::kPlainLoop;
  for (const auto& [name, value] : run_context) benchmark::AddCustomContext(name, value);
  benchmark::AddCustomContext("min_time", flags.min_time);
  benchmark::AddCustomContext("huge_pages", csbench::HugePagesState());
  benchmark::AddCustomContext("repetitions", run.repetitions);
  // A manifest's workgroups of SUBGROUP_SIZE take this device's before anything is named.
  csbench::Selection selection;
  const bool selected = UsageChecked([&] {
    if (context != nullptr) {
      for (auto& loaded : manifests) csbench::manifest::PlaceOnDevice(loaded, context->info());
    }
    selection = ChooseSelection(flags, options, context.get(), manifests);
  });
  if (!selected) return 2;
  csbench::SetSelection(std::move(selection));
  if (!options.domains.empty()) benchmark::AddCustomContext("domain_override", csbench::ToString(options.domains));
  if (!options.workgroups.empty()) {
    benchmark::AddCustomContext("workgroup_override", csbench::ToString(options.workgroups));
  }
  csbench::RegisterFamilies(*suite);
  if (!options.manifests.empty() && !RegisterManifestFamilies(*suite, options, manifests)) return 2;
  if (!csbench::SkippedFamilies().empty()) {
    std::string skipped;
    for (const csbench::SkippedFamily& f : csbench::SkippedFamilies()) {
      skipped += fmt::format("{}{}: {}", skipped.empty() ? "" : "; ", f.family, f.why);
    }
    benchmark::AddCustomContext("skipped_families", skipped);
  }
  if (csbench::SelectedCount() == 0) {
    if (!manifests.empty() && !options.with_built_ins) {
      fmt::print(stderr, "csbench: --benchmark_filter='{}' matches none of the manifests' benchmarks (names as "
                 "printed: --benchmark_list_tests lists them; the built-in families join with --with-built-ins)\n",
                 flags.filter.value_or(""));
    } else {
      fmt::print(stderr, "csbench: --benchmark_filter='{}' matches none of the {} benchmarks (names as printed: "
                 "--benchmark_list_tests --benchmark_filter=all lists them)\n", flags.filter.value_or(""),
                 csbench::OfferedCount());
    }
    return 2;
  }
  AnnounceSelection(run, context.get());
  if (context != nullptr && options.cache == csbench::CacheMode::kCold) MeasureColdRotation(*context);
  int code = 0;
  if (options.tune.enabled) {
    // The search runs the selection's points in its own order: a case made ahead for the next
    // point in the run's order would be the wrong one.
    csbench::EnablePrefetch(false);
    code = csbench::RunTune({.options = options.tune,
                             .min_time = std::stod(flags.min_time),
                             .device_key = csbench::DeviceKey(context.get()),
                             .device_name = context->info().name,
                             .driver = std::to_string(context->info().driver_version),
                             .revision = csbench::Revision()});
  }
  const csbench::RunSummary summary =
      options.tune.enabled ? csbench::RunSummary{} : csbench::RunBenchmarks(flags, run.args);
  csbench::ReleaseCurrentCase();
  benchmark::Shutdown();
  // The families' device buffers go before the device, and the validation layer reports leaks
  // when the device goes: count messages only after both.
  suite.reset();
  context.reset();
  return options.tune.enabled ? code : ExitCode(summary, options);
}

}  // namespace

// No exception leaves a run: each stage above catches what it can name (usage errors exit 2, a
// family that cannot be registered is skipped); whatever still escapes ends the run with one line
// and exit code 1 instead of std::terminate's abort.
int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "csbench: the run stopped on an error no stage caught: {} (exit code 1)\n", e.what());
  } catch (...) {
    fmt::print(stderr, "csbench: the run stopped on an error no stage caught (exit code 1)\n");
  }
  return 1;
}
