#include "bench/barriers.hpp"

#include <fmt/format.h>

#include "harness/family/float_inputs.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench::barriers {
namespace {

constexpr uint64_t kSeed = 20100313;

Variant Row(uint32_t rounds, Work work, std::vector<Pick> cpu_default = {}) {
  static constexpr const char* kWork[] = {"", "_even", "_uneven"};
  return {.name = fmt::format("b{}{}", rounds, kWork[static_cast<uint32_t>(work)]),
          .source = "barriers/exchange.comp",
          .rounds = rounds,
          .work = work,
          .workgroups = {{64}, {1024}},
          .cpu_default = std::move(cpu_default)};
}

}  // namespace

const Family<Variant>& Descriptor() {
  // b<N>: N barriers per element; _even / _uneven: 31 hash steps before each barrier in every
  // invocation, or 0 to 62 across each 32 invocations (31 on average: the same total work).
  // 1 MiB in, 1 MiB out: the barriers, not memory, are what is measured (and lavapipe takes
  // microseconds per barrier of a group).
  // A CPU device's default set: 1 and 16 barriers of each kind of work, at 64 lanes.
  const std::vector<Pick> at64 = {{.workgroups = {{64}}}};
  static const Family<Variant> family{
      .name = "barriers",
      .variants = {Row(1, Work::kNone, at64), Row(4, Work::kNone), Row(16, Work::kNone, at64),
                   Row(1, Work::kEven, at64), Row(4, Work::kEven), Row(16, Work::kEven, at64),
                   Row(1, Work::kUneven, at64), Row(4, Work::kUneven), Row(16, Work::kUneven, at64)},
      .domains = {{1u << 18}},
      .test_domains = {{10007}, {37}},
      .make = [](Suite& suite, const Variant& v, const Point& p) -> std::unique_ptr<Case> {
        const uint32_t workgroup = p.workgroup.x;
        return std::make_unique<FloatMapCase>(
            *suite.context, p, SharedFloatInputs(suite, "barriers", kSeed),
            FloatMap{
                .kernel = {.label = v.name,
                           .source = v.source,
                           .defines = {{"ROUNDS", std::to_string(v.rounds)},
                                       {"WORK", std::to_string(static_cast<uint32_t>(v.work))}}},
                .push = PushBytes(p.domain.x),
                // No rotation: the input is read once per dispatch and the barriers dominate;
                // 256 rotated copies of 1 MiB would make one timed batch 256 dispatches long.
                .cache = CacheMode::kWarm,
                // The exchange depends on the group size: one reference per case.
                .reference = [v, workgroup](std::span<const float> in,
                                            std::span<float> out) { Exchange(in, workgroup, v.rounds, v.work, out); },
                .per_domain = false,
                .tolerance = kTolerance,
                .counters = {{"barriers/element", v.rounds}}});
      },
      // The plain loop runs the heaviest variant (16 rounds, uneven work, 64 lanes): a CPU has no
      // barriers, so one loop stands for all.
      .plain_loop =
          [](Suite& suite, const Point& p) {
            RegisterFloatPlainLoop(
                p.name, SharedFloatInputs(suite, "barriers", kSeed), p.domain.x,
                [](std::span<const float> in, std::span<float> out) { Exchange(in, 64, 16, Work::kUneven, out); });
          }};
  return family;
}

namespace {
const Declaration kDeclared = Declare("barriers", &Descriptor);
}

}  // namespace csbench::barriers
