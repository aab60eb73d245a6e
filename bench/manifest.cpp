// A user's family, declared in a TOML manifest (harness/manifest/manifest.hpp): its descriptor built from
// the manifest, and its GPU case. The case does what every built-in family's does: inputs from a
// fixed seed, rotated past the last-level cache under --cache=cold; outputs poisoned, then
// checked against the reference variant run on the same device and against the manifest's
// [check] expressions, before anything is timed; the timed loop and its counters are the
// harness's (MeasureDispatches).
#include "bench/manifest.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <limits>

#include "harness/base/error.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench::manifest {
namespace {

using Words = std::vector<uint32_t>;

// The inputs of the points that share one set of input sizes (successive benchmarks of a
// domain): their values, and their device copies. One set is kept at a time.
struct Inputs {
  std::string key;
  std::vector<Words> host;  // per buffer; empty for an output
  std::vector<std::unique_ptr<RotatingInput>> device;
  uint32_t copies = 1;
};

// The reference variant's outputs at one point, which every other variant of the point is
// compared with; those of one point are kept at a time.
struct ReferenceOutputs {
  std::string key;
  std::vector<Words> outputs;  // per buffer; empty for an input
  std::string failure;         // why its own check run failed (a guard, an input); empty: it passed
};

struct State {
  std::shared_ptr<Inputs> inputs;
  ReferenceOutputs reference;
};

uint64_t SeedOf(const std::string& family, const std::string& buffer) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a: a seed that depends on the names alone
  for (char c : family + "/" + buffer) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

// The bytes of the guard region that follows each storage buffer in the check run: at least a page,
// so that a kernel's overrun by a whole workgroup's stride lands in it; a multiple of every
// offset alignment.
constexpr uint64_t kGuardBytes = 4096;

// Each buffer's guard has a pattern of its own: a kernel that copies past the end of one buffer
// into another's guard changes that guard too.
std::vector<std::byte> GuardPattern(const std::string& family, const std::string& buffer) {
  std::vector<std::byte> guard(kGuardBytes);
  const uint64_t base = SplitMix64(SeedOf(family, buffer) ^ 0x67756172645f6d6bull);
  for (size_t i = 0; i < guard.size(); i += 8) {
    const uint64_t word = SplitMix64(base + i);
    std::memcpy(&guard[i], &word, 8);
  }
  return guard;
}

Words MakeInput(const Manifest& m, const ManifestBuffer& b, uint64_t count) {
  Words words(count * b.type.components);
  const bool is_float = b.type.scalar == Scalar::kFloat;
  switch (b.init) {
    case ManifestBuffer::Init::kZero:
      break;
    case ManifestBuffer::Init::kRandom:
      if (is_float) {
        FillUniform({reinterpret_cast<float*>(words.data()), words.size()}, SeedOf(m.name, b.name));
      } else {
        const uint64_t base = SplitMix64(SeedOf(m.name, b.name));
        for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<uint32_t>(SplitMix64(base + i) >> 48);
      }
      break;
    case ManifestBuffer::Init::kIota:
      for (size_t i = 0; i < words.size(); ++i) {
        const float f = static_cast<float>(i);
        if (is_float) std::memcpy(&words[i], &f, 4); else words[i] = static_cast<uint32_t>(i);
      }
      break;
    case ManifestBuffer::Init::kValue: {
      uint32_t word = 0;
      if (is_float) {
        const float f = static_cast<float>(b.value);
        std::memcpy(&word, &f, 4);
      } else {
        word = b.value < 0 ? static_cast<uint32_t>(static_cast<int32_t>(b.value)) : static_cast<uint32_t>(b.value);
      }
      std::fill(words.begin(), words.end(), word);
      break;
    }
  }
  return words;
}

double AsNumber(uint32_t word, Scalar scalar) {
  if (scalar == Scalar::kFloat) {
    float f;
    std::memcpy(&f, &word, 4);
    return f;
  }
  return scalar == Scalar::kInt ? static_cast<double>(static_cast<int32_t>(word)) : static_cast<double>(word);
}

std::string IndexText(const ManifestBuffer& b, size_t i) {
  const uint32_t n = b.type.components;
  return n == 1 ? fmt::format("index {}", i) : fmt::format("index {} (element {}, component {})", i, i / n, i % n);
}

// Fails at the first element of output `got` that no invocation wrote (still poisoned, where the
// output started from the poison) or that is not a finite float.
Comparison Unwritten(const ManifestBuffer& b, const Words& got) {
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = AsNumber(got[i], b.type.scalar);
    if ((got[i] == kPoison && !b.init_given) || !std::isfinite(g)) {
      return {.max_relative_error = std::numeric_limits<double>::infinity(),
              .worst_index = i,
              .message = got[i] == kPoison
                             ? fmt::format("output '{}' {}: unwritten, or NaN carried from the poison (0x{:08x}): "
                                           "an output the kernel accumulates into needs `init`",
                                           b.name, IndexText(b, i), kPoison)
                             : fmt::format("output '{}' {}: got {}, not a finite number", b.name, IndexText(b, i), g)};
    }
  }
  return {.passed = true};
}

// The worst element of `got` against `want` (one buffer): floats by relative error (floor 1e-6,
// as the built-in families' Compare), integers exactly; an element still poisoned, or not a
// finite float, fails wherever it is.
Comparison CompareWords(const ManifestBuffer& b, const Words& got, const std::vector<double>& want, double tolerance,
                        double abs_tolerance, const std::string& against) {
  Comparison c;
  auto at = [&](size_t i) { return IndexText(b, i); };
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = AsNumber(got[i], b.type.scalar);
    double error = 0;
    if (b.type.scalar == Scalar::kFloat) {
      error = std::isfinite(g) ? std::abs(g - want[i]) / std::max(std::abs(want[i]), 1e-6)
                               : std::numeric_limits<double>::infinity();
      // Within the absolute bound: as good as exact.
      if (std::isfinite(g) && std::abs(g - want[i]) <= abs_tolerance) error = 0;
      if (std::isnan(want[i]) && std::isnan(g)) error = 0;
    } else {
      error = g == want[i] ? 0 : std::numeric_limits<double>::infinity();
    }
    if (!(error <= c.max_relative_error)) {
      c.max_relative_error = error;
      c.worst_index = i;
    }
  }
  const bool exact = b.type.scalar != Scalar::kFloat;
  c.passed = exact ? c.max_relative_error == 0 : c.max_relative_error <= tolerance;
  if (!c.passed) {
    const size_t i = c.worst_index;
    c.message = exact ? fmt::format("output '{}' {}: got {}, want {} ({})", b.name, at(i),
                                    AsNumber(got[i], b.type.scalar), want[i], against)
                      : fmt::format("output '{}' {}: got {}, want {} ({}): relative error {:.3g}, tolerance {:.1g}",
                                    b.name, at(i), AsNumber(got[i], b.type.scalar), want[i], against,
                                    c.max_relative_error, tolerance);
  }
  return c;
}

// EvaluatePoint, its error an Error (registration evaluated every point already: this is a
// guard, so that no ManifestError can escape a benchmark).
PointValues Evaluated(const Manifest& m, const ManifestVariant& v, const Point& point) {
  try {
    return EvaluatePoint(m, v, point.workgroup, point.domain);
  } catch (const ManifestError& e) {
    throw Error(e.message);
  }
}

class GpuCase : public Case {
 public:
  GpuCase(Suite& suite, const Manifest& m, const ManifestVariant& v, const Point& point)
      : suite_(&suite), context_(suite.context), manifest_(&m), variant_(&v), point_(point),
        values_(Evaluated(m, v, point)) {
    const DeviceInfo& info = context_->info();
    for (const std::string& feature : v.requires_features) {
      const bool has = feature == "subgroup_arithmetic"         ? info.subgroup_arithmetic
                       : feature == "subgroup_ballot"           ? info.subgroup_ballot
                       : feature == "subgroup_shuffle_relative" ? info.subgroup_shuffle_relative
                                                                : info.float_atomic_add;
      RequireSupport(has, fmt::format("variant {} requires {}, which the device lacks", v.name, feature));
    }
    RequireWorkgroup(*context_, point.workgroup);
    for (size_t i = 0; i < 3; ++i) {
      RequireSupport(values_.groups[i] <= info.max_workgroup_count[i],
                     fmt::format("{} workgroups in dimension {} exceed the device's maxComputeWorkGroupCount ({})",
                                 values_.groups[i], "xyz"[i], info.max_workgroup_count[i]));
    }
    const uint32_t push_bytes = static_cast<uint32_t>(4 * values_.push.size());
    RequireSupport(push_bytes <= info.max_push_constant_bytes,
                   fmt::format("{} bytes of push constants exceed the device's maxPushConstantsSize ({})", push_bytes,
                               info.max_push_constant_bytes));
    const auto buffers = static_cast<uint32_t>(m.buffers.size());
    RequireSupport(buffers <= info.max_dynamic_storage_buffers && buffers <= info.max_storage_buffers_per_stage,
                   fmt::format("{} storage buffers exceed the device's maxDescriptorSetStorageBuffersDynamic ({}) or "
                               "maxPerStageDescriptorStorageBuffers ({})",
                               buffers, info.max_dynamic_storage_buffers, info.max_storage_buffers_per_stage));
    for (size_t i = 0; i < m.buffers.size(); ++i) RequireStorage(*context_, values_.counts[i] * m.buffers[i].type.Bytes());
    RequireSupport(info.api_version >= ApiVersionOf(v.target),
                   fmt::format("variant {} is compiled for Vulkan {}, and the device has {}", v.name,
                               VulkanTargetName(v.target), info.ApiVersionString()));
    KernelSpec spec{.label = v.name,
                    .source = v.source.string(),
                    .defines = v.defines,
                    .local_size = {point.workgroup.x, point.workgroup.y, v.local_size_z},
                    .local_size_ids = v.local_size_ids,
                    .bindings = buffers,
                    .push_bytes = push_bytes,
                    .spirv = &CompileShader(SourceOf(v, point.workgroup, true)),
                    .entry = v.entry};
    for (size_t i = 0; i < v.constants.size(); ++i) {
      spec.specialization.push_back({.id = v.constants[i].id, .size = v.constants[i].bytes, .bits = values_.constants[i]});
    }
    for (const ManifestBuffer& b : m.buffers) spec.slots.push_back({.set = b.set, .binding = b.binding});
    kernel_ = std::make_unique<Kernel>(*context_, spec);
    for (const PushValue& p : values_.push) push_.push_back(p.bits);
    inputs_ = SharedInputs();
    std::vector<BufferRange> ranges;
    outputs_.resize(m.buffers.size());
    initial_.resize(m.buffers.size());
    restore_.resize(m.buffers.size());
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const uint64_t bytes = Bytes(i);
      if (b.output) {
        outputs_[i] = std::make_unique<Buffer>(*context_, bytes);
        ranges.push_back({outputs_[i].get(), 0});
        if (b.init_given) {
          // The timed dispatches start from the same contents as the check run.
          initial_[i] = MakeInput(m, b, values_.counts[i]);
          outputs_[i]->Upload(std::as_bytes(std::span(initial_[i])));
        }
        if (b.restore) {
          restore_[i] = std::make_unique<Buffer>(*context_, bytes);
          restore_[i]->Upload(std::as_bytes(std::span(initial_[i])));
        }
      } else {
        ranges.push_back({&inputs_->device[i]->buffer(), bytes});
      }
    }
    bindings_ = std::make_unique<Bindings>(kernel_->Bind(ranges));
  }

  // This variant's outputs from one run on buffers of the check's own, each followed by a guard
  // region of its own pattern (inside the bound range under --guard=inside): the outputs start
  // from the poison or their init, the inputs from their values. `failure` says which guard
  // changed, or which input, where one did.
  struct GuardedResult {
    std::vector<Words> outputs;  // per buffer; empty for an input
    Comparison failure{.passed = true};
  };
  GuardedResult GuardedRun() {
    const Manifest& m = *manifest_;
    const bool inside = suite_->options.guard == GuardPlace::kInside;
    std::vector<std::unique_ptr<Buffer>> buffers;
    std::vector<BufferRange> ranges;
    std::vector<std::vector<std::byte>> guards;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const uint64_t bytes = Bytes(i);
      std::vector<std::byte> start(bytes + kGuardBytes);
      if (!b.output) {
        std::memcpy(start.data(), inputs_->host[i].data(), bytes);
      } else if (b.init_given) {
        std::memcpy(start.data(), initial_[i].data(), bytes);
      } else {
        for (uint64_t at = 0; at + 4 <= bytes; at += 4) std::memcpy(&start[at], &kPoison, 4);
      }
      guards.push_back(GuardPattern(m.name, b.name));
      std::memcpy(start.data() + bytes, guards.back().data(), kGuardBytes);
      buffers.push_back(std::make_unique<Buffer>(*context_, start.size()));
      buffers.back()->Upload(start);
      ranges.push_back({buffers.back().get(), inside ? bytes + kGuardBytes : bytes});
    }
    const Bindings bindings = kernel_->Bind(ranges);
    context_->Run([&](Commands& c) { Dispatch(c, bindings, std::vector<uint32_t>(m.buffers.size(), 0)); });
    GuardedResult result;
    result.outputs.resize(m.buffers.size());
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const uint64_t bytes = Bytes(i);
      std::vector<std::byte> got(bytes + kGuardBytes);
      buffers[i]->Download(got);
      const auto guard = std::span(got).subspan(bytes);
      if (!result.failure.passed) continue;
      if (auto changed = std::mismatch(guard.begin(), guard.end(), guards[i].begin()); changed.first != guard.end()) {
        result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                          .message = fmt::format("wrote past the end of '{}' (first changed byte +{}{})", b.name,
                                                 changed.first - guard.begin(),
                                                 inside ? ", in the guard bound inside its range (--guard=inside)"
                                                        : "")};
        continue;
      }
      Words words(bytes / 4);
      std::memcpy(words.data(), got.data(), words.size() * 4);
      if (b.output) {
        result.outputs[i] = std::move(words);
      } else if (auto changed = std::mismatch(words.begin(), words.end(), inputs_->host[i].begin());
                 changed.first != words.end()) {
        result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                          .message = fmt::format("changed input '{}' at {}: the kernel wrote a buffer the manifest "
                                                 "declares an input (give it output = true and an init to update it "
                                                 "in place)",
                                                 b.name, IndexText(b, changed.first - words.begin()))};
      }
    }
    return result;
  }

  Comparison Check() override {
    GuardedResult run = GuardedRun();
    if (!run.failure.passed) return run.failure;
    const std::vector<Words>& got = run.outputs;
    const Manifest& m = *manifest_;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      if (!b.output) continue;
      // Every element written, and a finite float: what the reference variant is checked for
      // at least, and a clearer message than a comparison for the others.
      Comparison c = Unwritten(b, got[i]);
      if (!c.passed) return c;
      if (auto expression = variant_->check.find(b.name); expression != variant_->check.end()) {
        c = CompareWords(b, got[i], Expected(b, got[i].size(), expression->second), variant_->tolerance,
                         variant_->abs_tolerance, fmt::format("[check] {} = \"{}\"", b.name, expression->second));
        if (!c.passed) return c;
      }
    }
    const ManifestVariant* reference = ReferenceVariant();
    if (reference == variant_) {
      State& state = suite_->Shared<State>(StateKey());
      state.reference = {ReferenceKey(), got, ""};
    } else if (reference != nullptr) {
      const ReferenceOutputs& kept = ReferenceRun(*reference);
      if (!kept.failure.empty()) {
        return {.max_relative_error = std::numeric_limits<double>::infinity(),
                .message = fmt::format("the reference variant {} fails its own check run: {}", reference->name,
                                       kept.failure)};
      }
      const std::vector<Words>& want = kept.outputs;
      for (size_t i = 0; i < m.buffers.size(); ++i) {
        const ManifestBuffer& b = m.buffers[i];
        if (!b.output) continue;
        if (want[i].size() != got[i].size()) {
          return {.max_relative_error = std::numeric_limits<double>::infinity(),
                  .message = fmt::format("output '{}' has {} values, the reference variant's {}", b.name,
                                         got[i].size(), want[i].size())};
        }
        Comparison c = CompareWords(b, got[i], Numbers(want[i], b), variant_->tolerance, variant_->abs_tolerance,
                                    fmt::format("the reference variant {}", reference->name));
        if (!c.passed) return c;
      }
    }
    return {.passed = true};
  }

  void Measure(benchmark::State& state) override {
    const Work work{.elements = values_.elements,
                    .bytes = values_.bytes,
                    .read_only = manifest_->read_only,
                    .ops = values_.arithmetic,
                    .peak = manifest_->arithmetic_unit == "OP"       ? Peak::kInt32
                            : manifest_->arithmetic_unit == "FLOP16" ? Peak::kFp16
                                                                     : Peak::kFp32,
                    .ops_lower_bound = manifest_->arithmetic_lower_bound};
    if (std::none_of(restore_.begin(), restore_.end(), [](const auto& r) { return r != nullptr; })) {
      MeasureDispatches(state, *context_, point_.name, [&](Commands& c, uint32_t i) { Record(c, i); },
                        inputs_->copies, work);
      return;
    }
    // Outputs restored before each dispatch: one dispatch a run, timed alone by the device's
    // timestamps; the copies back to the initial contents are submitted before it, untimed. Each
    // run takes the next copy of the rotated inputs, as a batch's dispatches do.
    std::vector<std::unique_ptr<TimedBatch>> timed(inputs_->copies);
    uint32_t next = 0;
    MeasureTimedRuns(
        state, context_,
        [&] {
          context_->Run([&](Commands& c) {
            for (size_t i = 0; i < restore_.size(); ++i) {
              if (restore_[i]) c.Copy(*restore_[i], 0, *outputs_[i], 0, Bytes(i));
            }
          });
        },
        [&] {
          const uint32_t copy = next++ % inputs_->copies;
          if (!timed[copy]) timed[copy] = std::make_unique<TimedBatch>(*context_, [&, copy](Commands& c) { Record(c, copy); });
          return timed[copy]->Run();
        },
        work);
  }

 private:
  std::string StateKey() const { return "manifest:" + manifest_->name; }
  std::string ReferenceKey() const {
    return fmt::format("{}/{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain));
  }

  const ManifestVariant* ReferenceVariant() const {
    for (const ManifestVariant& v : manifest_->variants) {
      if (v.reference) return &v;
    }
    return nullptr;
  }

  // The reference variant's outputs at this point: kept from its own check, or run now (when a
  // filter left its benchmark out, or it ran at another point last).
  const ReferenceOutputs& ReferenceRun(const ManifestVariant& reference) {
    State& state = suite_->Shared<State>(StateKey());
    if (state.reference.key != ReferenceKey()) {
      GpuCase made(*suite_, *manifest_, reference, point_);
      GuardedResult run = made.GuardedRun();
      state.reference = {ReferenceKey(), std::move(run.outputs), run.failure.passed ? "" : run.failure.message};
    }
    return state.reference;
  }

  static std::vector<double> Numbers(const Words& words, const ManifestBuffer& b) {
    std::vector<double> numbers(words.size());
    for (size_t i = 0; i < words.size(); ++i) numbers[i] = AsNumber(words[i], b.type.scalar);
    return numbers;
  }

  // `text` at each of the output's `scalars` indices, over the inputs' values at the same index.
  std::vector<double> Expected(const ManifestBuffer& out, size_t scalars, const std::string& text) const {
    const Manifest& m = *manifest_;
    std::vector<std::string> names = {"i", "W", "H"};
    std::vector<const ManifestBuffer*> inputs;
    std::vector<const Words*> words;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      if (m.buffers[i].output && !m.buffers[i].init_given) continue;
      names.push_back(m.buffers[i].name);
      inputs.push_back(&m.buffers[i]);
      words.push_back(m.buffers[i].output ? &initial_[i] : &inputs_->host[i]);
    }
    Expression expression(text, names);
    std::vector<double> want(scalars);
    const double width = point_.domain.x, height = point_.domain.y;
    // EvaluatePoint made sure that every input an expression names is as long as the output.
    auto fill = [&](size_t variable, size_t start, size_t n, double* values) {
      for (size_t k = 0; k < n; ++k) {
        const size_t at = start + k;
        values[k] = variable == 0   ? static_cast<double>(at)
                    : variable == 1 ? width
                    : variable == 2 ? height
                    : at < words[variable - 3]->size()
                        ? AsNumber((*words[variable - 3])[at], inputs[variable - 3]->type.scalar)
                        : std::numeric_limits<double>::quiet_NaN();
      }
    };
    try {
      expression.EvaluateEach(scalars, fill, want.data());
    } catch (const ExpressionError& e) {
      throw Error(fmt::format("[check] {} = \"{}\": {}", out.name, text, e.message));
    }
    return want;
  }

  // The inputs of this point's sizes: the kept ones, or made now (and kept in their place).
  std::shared_ptr<Inputs> SharedInputs() {
    const Manifest& m = *manifest_;
    std::string key = suite_->options.cache == CacheMode::kCold ? "cold" : "warm";
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      if (!m.buffers[i].output) key += fmt::format("/{}", values_.counts[i]);
    }
    State& state = suite_->Shared<State>(StateKey());
    if (state.inputs && state.inputs->key == key) return state.inputs;
    state.inputs.reset();  // before the new copies are made: both may not fit
    auto made = std::make_shared<Inputs>();
    made->key = key;
    made->host.resize(m.buffers.size());
    made->device.resize(m.buffers.size());
    // One count of copies for every input, from their bytes together, so that a batch's period
    // cycles through all of them.
    uint64_t stride = 0;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      if (!m.buffers[i].output) stride += RotatingInput::Stride(*context_, values_.counts[i] * m.buffers[i].type.Bytes());
    }
    made->copies = RotationCopies(stride, RotatingInput::kBudgetBytes, suite_->options.cache);
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      if (m.buffers[i].output) continue;
      made->host[i] = MakeInput(m, m.buffers[i], values_.counts[i]);
      made->device[i] = std::make_unique<RotatingInput>(*context_, std::as_bytes(std::span(made->host[i])),
                                                        suite_->options.cache, made->copies);
    }
    state.inputs = made;
    return made;
  }

  uint64_t Bytes(size_t buffer) const { return values_.counts[buffer] * manifest_->buffers[buffer].type.Bytes(); }

  void Record(Commands& c, uint32_t i) const {
    std::vector<uint32_t> offsets(manifest_->buffers.size(), 0);
    for (size_t b = 0; b < offsets.size(); ++b) {
      if (!manifest_->buffers[b].output) offsets[b] = inputs_->device[b]->Offset(i);
    }
    Dispatch(c, *bindings_, offsets);
  }

  void Dispatch(Commands& c, const Bindings& bindings, const std::vector<uint32_t>& offsets) const {
    c.Dispatch(*kernel_, bindings,
               {static_cast<uint32_t>(values_.groups[0]), static_cast<uint32_t>(values_.groups[1]),
                static_cast<uint32_t>(values_.groups[2])},
               offsets, std::as_bytes(std::span(push_)));
  }

  Suite* suite_;
  Context* context_;
  const Manifest* manifest_;
  const ManifestVariant* variant_;
  Point point_;
  PointValues values_;
  std::vector<uint32_t> push_;
  std::shared_ptr<Inputs> inputs_;
  std::vector<std::unique_ptr<Buffer>> outputs_;
  std::vector<Words> initial_;                     // per output with an init: its contents
  std::vector<std::unique_ptr<Buffer>> restore_;   // per output restored before each timed dispatch
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

}  // namespace

std::deque<Loaded>& Loaded::All() {
  static std::deque<Loaded> loaded;
  return loaded;
}

const Loaded& Adopt(Manifest manifest) {
  Loaded& loaded = Loaded::All().emplace_back();
  loaded.manifest = std::move(manifest);
  const Manifest& m = loaded.manifest;
  loaded.family = Family<ManifestVariant>{
      .name = m.name,
      .variants = m.variants,
      .domains = m.domains,
      .test_domains = m.test_domains.empty() ? m.domains : m.test_domains,
      // wg<X>x<Y>/domain<W>x<H> also where every size is one-dimensional, as the built-in
      // one-dimensional families write theirs (stream/copy/wg64x1/domain65536x1).
      .style = Style::kPair,
      .one_dimensional = m.one_dimensional,
      .make = [&m](Suite& suite, const ManifestVariant& v, const Point& p) -> std::unique_ptr<Case> {
        return std::make_unique<GpuCase>(suite, m, v, p);
      }};
  return loaded;
}

void Register(Suite& suite, const Loaded& loaded) {
  // Every point's expressions under the run's --domain and --workgroup overrides: a value that
  // is no use there is the manifest's error, reported before anything runs.
  for (const Point& p : GpuPoints(loaded.family, suite.options.domains, suite.options.workgroups, nullptr)) {
    EvaluatePointAndReference(loaded.manifest, loaded.family.variants[p.variant], p.workgroup, p.domain);
  }
  RegisterFamily(suite, loaded.family);
}

}  // namespace csbench::manifest
