#include "harness/base/options.hpp"

#include <gtest/gtest.h>

namespace csbench {
namespace {

std::vector<std::string> Args(std::initializer_list<std::string> rest) {
  std::vector<std::string> args{"bench"};
  args.insert(args.end(), rest);
  return args;
}

// The usage error `flags` give (the test fails where they are taken), its message.
std::string Refusal(std::initializer_list<std::string> flags) {
  auto args = Args(flags);
  try {
    ParseOptions(args);
  } catch (const UsageError& e) {
    return e.message;
  }
  ADD_FAILURE() << "accepted " << testing::PrintToString(std::vector<std::string>(flags));
  return "";
}

TEST(ParseOptions, TakesCsbenchFlagsAndLeavesTheRest) {
  auto args = Args({"--device=H100", "--benchmark_filter=reduction", "--backend=plain_loop", "--list-devices",
                    "--cache=warm", "--timer=host", "--benchmark_min_time=0.1"});
  Options o = ParseOptions(args);
  EXPECT_EQ(o.device, "H100");
  EXPECT_EQ(o.backend, Backend::kPlainLoop);
  EXPECT_TRUE(o.list_devices);
  EXPECT_EQ(o.cache, CacheMode::kWarm);
  EXPECT_EQ(o.timer, TimerChoice::kHost);
  EXPECT_EQ(args, (std::vector<std::string>{"bench", "--benchmark_filter=reduction", "--benchmark_min_time=0.1"}));
}

TEST(ParseOptions, ChecksTakeAutoOrHost) {
  auto args = Args({"--checks=host"});
  EXPECT_EQ(ParseOptions(args).checks, CheckPlace::kHost);
  auto none = Args({});
  EXPECT_EQ(ParseOptions(none).checks, CheckPlace::kAuto);
  const std::string wrong = Refusal({"--checks=device"});
  EXPECT_NE(wrong.find("--checks"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("auto"), std::string::npos) << wrong;
  EXPECT_NE(Refusal({"--checks"}).find("--checks needs a value"), std::string::npos);
}

TEST(ParseOptions, SamplesIsAPlainSwitch) {
  auto args = Args({"--samples", "--benchmark_repetitions=3"});
  EXPECT_TRUE(ParseOptions(args).samples);
  EXPECT_EQ(args, (std::vector<std::string>{"bench", "--benchmark_repetitions=3"}));
  // With a value it is not csbench's flag: it stays for Google Benchmark, which refuses an
  // unknown flag (exit code 2), rather than being read as on or off.
  auto with_value = Args({"--samples=yes"});
  EXPECT_FALSE(ParseOptions(with_value).samples);
  EXPECT_EQ(with_value, (std::vector<std::string>{"bench", "--samples=yes"}));
  auto none = Args({});
  EXPECT_FALSE(ParseOptions(none).samples);
}

TEST(ParseOptions, DispatchTimeoutTakesSecondsWithFractions) {
  auto none = Args({});
  EXPECT_EQ(ParseOptions(none).dispatch_timeout_s, 300.0);
  auto half = Args({"--dispatch-timeout=0.5", "--benchmark_filter=x"});
  EXPECT_EQ(ParseOptions(half).dispatch_timeout_s, 0.5);
  EXPECT_EQ(half, (std::vector<std::string>{"bench", "--benchmark_filter=x"}));
  auto hour = Args({"--dispatch-timeout=3600"});
  EXPECT_EQ(ParseOptions(hour).dispatch_timeout_s, 3600.0);
}

TEST(ParseOptions, DispatchTimeoutRefusesWhatIsNotASpanOfTime) {
  for (const char* bad : {"0", "-1", "3600.5", "abc", "", "1s", "inf", "nan", "0.5x", "+1"}) {
    const std::string message = Refusal({std::string("--dispatch-timeout=") + bad});
    EXPECT_NE(message.find("--dispatch-timeout=" + std::string(bad) + " is not valid"), std::string::npos) << message;
    EXPECT_NE(message.find("at most 3600"), std::string::npos) << message;
  }
  auto bare = Args({"--dispatch-timeout"});
  EXPECT_THROW(ParseOptions(bare), UsageError);
}

TEST(ParseOptions, AxisAndTuneFlags) {
  auto args = Args({"--axis=ROWS=2,4", "--axis=MODE=fast", "--tune", "--tune-strategy=random", "--tune-budget=30s",
                    "--tune-out=best.json", "--tune-header=best.h", "--tune-seed=7"});
  const Options o = ParseOptions(args);
  ASSERT_EQ(o.axes.size(), 2u);
  EXPECT_EQ(o.axes[0].name, "ROWS");
  EXPECT_EQ(o.axes[0].values, (std::vector<std::string>{"2", "4"}));
  EXPECT_EQ(o.axes[1].values, (std::vector<std::string>{"fast"}));
  EXPECT_TRUE(o.tune.enabled);
  EXPECT_EQ(o.tune.strategy, TuneStrategy::kRandom);
  EXPECT_EQ(o.tune.budget_seconds, 30);
  EXPECT_EQ(o.tune.budget_evaluations, 0u);
  EXPECT_EQ(o.tune.seed, 7u);
  EXPECT_EQ(o.tune.out, "best.json");
  auto evaluations = Args({"--tune", "--tune-budget=200"});
  EXPECT_EQ(ParseOptions(evaluations).tune.budget_evaluations, 200u);
}

TEST(ParseOptions, BadAxisAndTuneFlagsAreUsageErrors) {
  for (const std::string bad : {"--axis=ROWS", "--axis==1", "--axis=ROWS=", "--axis=ROWS=1,,2", "--axis=ROWS=1,1",
                                "--axis=ROWS=a b", "--tune-strategy=annealing", "--tune-budget=0", "--tune-budget=x",
                                "--tune-budget=-5s", "--tune-out=x.json", "--tune-seed=0", "--axis"}) {
    auto args = Args({bad});
    EXPECT_THROW(ParseOptions(args), UsageError) << bad;
  }
  auto twice = Args({"--axis=ROWS=1", "--axis=ROWS=2"});
  EXPECT_THROW(ParseOptions(twice), UsageError);
}

TEST(ParseOptions, Defaults) {
  auto args = Args({});
  Options o = ParseOptions(args);
  EXPECT_EQ(o.backend, Backend::kVulkan);
  EXPECT_EQ(o.cache, CacheMode::kCold);
  EXPECT_TRUE(o.device.empty());
  EXPECT_FALSE(o.list_devices);
}

TEST(ParseOptions, UnknownValueListsTheChoices) {
  const std::string message = Refusal({"--backend=cuda"});
  EXPECT_NE(message.find("'cuda'"), std::string::npos) << message;
  EXPECT_NE(message.find("vulkan, plain_loop"), std::string::npos) << message;
}

TEST(ParseOptions, CeilingsAutoByDefaultMeasureOrReuse) {
  auto none = Args({});
  EXPECT_EQ(ParseOptions(none).ceilings, CeilingsMode::kAuto);
  auto measure = Args({"--ceilings=measure"});
  EXPECT_EQ(ParseOptions(measure).ceilings, CeilingsMode::kMeasure);
  auto reuse = Args({"--ceilings=reuse"});
  EXPECT_EQ(ParseOptions(reuse).ceilings, CeilingsMode::kReuse);
  auto automatic = Args({"--ceilings=auto"});
  EXPECT_EQ(ParseOptions(automatic).ceilings, CeilingsMode::kAuto);
  const std::string message = Refusal({"--ceilings=cached"});
  EXPECT_NE(message.find("auto, measure, reuse"), std::string::npos) << message;
}

TEST(ParseOptions, MissingValuesAreErrors) {
  for (std::string flag : {"--device", "--backend", "--cache", "--device=", "--ceilings"}) {
    auto args = Args({flag});
    EXPECT_THROW(ParseOptions(args), UsageError) << flag;
  }
}

TEST(ParseOptions, SimilarGoogleBenchmarkFlagsPassThrough) {
  auto args = Args({"--devices=2", "--backendx=1"});
  ParseOptions(args);
  EXPECT_EQ(args.size(), 3u);
}

TEST(ParseOptions, DomainsAndWorkgroups) {
  auto args = Args({"--domain=2560x1440,256", "--workgroup=8x8,16x16", "--benchmark_filter=reduction/"});
  Options o = ParseOptions(args);
  EXPECT_EQ(o.domains, (std::vector<Extent>{{2560, 1440}, {256, 1}}));
  EXPECT_EQ(o.workgroups, (std::vector<Extent>{{8, 8}, {16, 16}}));
  EXPECT_EQ(args, (std::vector<std::string>{"bench", "--benchmark_filter=reduction/"}));
  EXPECT_EQ(ToString(o.domains), "2560x1440,256x1");
  auto none = Args({});
  EXPECT_TRUE(ParseOptions(none).domains.empty());
}

TEST(ParseOptions, ThreeDimensionalExtents) {
  auto args = Args({"--domain=64x40x8,256", "--workgroup=4x4x4"});
  const Options o = ParseOptions(args);
  EXPECT_EQ(o.domains, (std::vector<Extent>{{64, 40, 8}, {256, 1, 1}}));
  EXPECT_EQ(o.workgroups, (std::vector<Extent>{{4, 4, 4}}));
  EXPECT_EQ(ToString(o.domains), "64x40x8,256x1");
  EXPECT_NE(Refusal({"--domain=1x2x3x4"}).find("'1x2x3x4' has 4 sizes, at most three"), std::string::npos);
}

TEST(ParseOptions, TestDomainsAreTheirOwnChoiceOfDomains) {
  auto args = Args({"--test-domains"});
  EXPECT_TRUE(ParseOptions(args).test_domains);
  auto none = Args({});
  EXPECT_FALSE(ParseOptions(none).test_domains);
  EXPECT_NE(Refusal({"--test-domains", "--domain=64"}).find("--test-domains and --domain both choose the domains"),
            std::string::npos);
}

TEST(ParseOptions, MalformedExtentsNameTheValidForms) {
  for (std::string bad : {"--domain=", "--domain=0x5", "--domain=12x", "--domain=axb", "--domain=64,,128",
                          "--workgroup=8x8x8x8", "--workgroup=-4", "--domain=4xx4", "--domain=99999999999", "--domain", "--workgroup"}) {
    const std::string message = Refusal({bad});
    if (bad.find('=') != std::string::npos) {
      EXPECT_NE(message.find("valid forms"), std::string::npos) << bad << ": " << message;
    }
  }
}

}  // namespace
}  // namespace csbench
