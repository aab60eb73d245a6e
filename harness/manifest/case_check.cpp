// A manifest case's check: outputs against the reference variant's, the [check] expressions and [require].
#include "harness/manifest/case.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/base/half.hpp"
#include "harness/base/provenance.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/manifest/gpu_case.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

std::string GpuCase::Explained(size_t i, size_t k, const std::string& seen) {
  const ManifestBuffer& b = manifest_->buffers[i];
  GuardedResult zeroed = GuardedRun(i);
  // A second run that fails otherwise (a guard, an input) tells nothing more.
  if (zeroed.failure.passed) Downloaded(zeroed);
  if (!zeroed.failure.passed || k >= Scalars(b, zeroed.outputs[i])) return seen;
  const double z = Get(b.type, zeroed.outputs[i], k);
  if (z == 0) return seen + "; it stays 0 when the output starts from zeros: the kernel never writes it";
  if (std::isfinite(z)) {
    return fmt::format("{}; started from zeros it holds {}: the kernel reads the output before writing it, and an "
                       "output the kernel accumulates into needs `init`",
                       seen, z);
  }
  return seen + "; a NaN also when the output starts from zeros: the kernel computes it";
}

Comparison GpuCase::Checked() {
  GuardedResult run = GuardedRun();
  if (!run.failure.passed) return run.failure;
  if (PassesOnDevice(run)) return {.passed = true};
  Downloaded(run);
  // Moved to the kept reference outputs at the end where this is the reference variant.
  const std::vector<Data>& got = run.outputs;
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  for (size_t i = 0; i < buffers_n; ++i) {
    const ManifestBuffer& b = m.buffers[i];
    if (!b.output) continue;
    // Every element written, and a finite float: what the reference variant is checked for
    // at least, and a clearer message than a comparison for the others.
    Comparison c = Unwritten(b, got[i], initial_[i] != nullptr, !b.expect.Given());
    if (!c.passed) {
      const size_t k = c.worst_index;
      if (initial_[i] == nullptr && (StillPoison(b.type, got[i], k) || std::isnan(Get(b.type, got[i], k)))) {
        c.message = Explained(i, k, c.message);
      }
      return c;
    }
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const ManifestImage& image = m.images[k];
    if (!image.output) continue;
    Comparison c = UnwrittenImage(k, got[buffers_n + k]);
    if (!c.passed) return c;
  }
  for (size_t i = 0; i < buffers_n; ++i) {
    const ManifestBuffer& b = m.buffers[i];
    if (!written_[i]) continue;
    if (auto expression = variant_->check.find(b.name); expression != variant_->check.end()) {
      Comparison c = CompareWithCheck(got, i, -1, Scalars(b, got[i]), expression->second, b.name, &run);
      if (!c.passed) return c;
    }
    // A struct's members, each checked by its own expression.
    for (size_t f = 0; f < b.type.fields.size(); ++f) {
      const std::string key = b.name + "." + b.type.fields[f].name;
      auto expression = variant_->check.find(key);
      if (expression == variant_->check.end()) continue;
      Comparison c = CompareWithCheck(got, i, static_cast<int>(f), Scalars(b, got[i]) / b.type.Lanes(),
                                      expression->second, key);
      if (!c.passed) return c;
    }
    // A header's members, each one value checked by its own expression.
    for (const BlockField& f : b.header_fields) {
      const std::string key = b.name + "." + f.key;
      auto expression = variant_->check.find(key);
      if (expression == variant_->check.end()) continue;
      Comparison c = CompareHeader(got, i, f, expression->second, key);
      if (!c.passed) return c;
    }
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const size_t r = buffers_n + k;
    if (!written_[r]) continue;
    auto expression = variant_->check.find(m.images[k].name);
    if (expression == variant_->check.end()) continue;
    const Reading reading = ReadingOf(got, r);
    const std::string against = fmt::format("{} = \"{}\"", CheckLabel(m.images[k].name), expression->second);
    const DeviceCheck device = CheckOnDevice(run, got, r, expression->second);
    const bool on_device = device.refused.empty() && !device.overflow;
    ++(on_device ? checks_on_device_ : checks_on_host_);
    if (on_device && device.suspects.empty()) continue;
    const std::vector<size_t>* only = on_device ? &device.suspects : nullptr;
    const std::vector<double> want = Expected(got, r, -1, reading.scalars, expression->second, nullptr, "", only);
    Comparison c = CompareImage(k, reading, want, against, only);
    if (!c.passed) return c;
  }
  for (const auto& [name, text] : m.require) {
    Comparison c = Required(got, name, text);
    if (!c.passed) return c;
  }
  // Outputs against their `expect` files (case_files.cpp).
  if (Comparison c = FileExpectations(got); !c.passed) return c;
  const ManifestVariant* reference = ReferenceVariant();
  // By name: the family's variants are copies of the manifest's.
  if (reference != nullptr && reference->name == variant_->name) {
    KeepReference(run, ReferenceKey());
  } else if (reference != nullptr) {
    ReferenceOutputs& kept = ReferenceRun(*reference);
    if (!kept.failure.empty()) {
      return {.max_relative_error = std::numeric_limits<double>::infinity(),
              .message = fmt::format("the reference variant {} fails its own check run: {}", reference->name,
                                     kept.failure)};
    }
    const std::vector<Data>& want = ReferenceHost(kept);
    for (size_t i = 0; i < buffers_n; ++i) {
      const ManifestBuffer& b = m.buffers[i];
      if (!b.output) continue;
      if (want[i].size() != got[i].size()) {
        return {.max_relative_error = std::numeric_limits<double>::infinity(),
                .message = fmt::format("output '{}' has {} values, the reference variant's {}", b.name,
                                       Scalars(b, got[i]), Scalars(b, want[i]))};
      }
      Comparison c = CompareBuffers(b, got[i], want[i], variant_->tolerance, variant_->abs_tolerance,
                                    fmt::format("the reference variant {}", reference->name));
      if (!c.passed) return c;
    }
    for (size_t k = 0; k < m.images.size(); ++k) {
      const size_t r = buffers_n + k;
      if (!m.images[k].output) continue;
      // Each reference value read where it is compared.
      const Reading reference_reading = ReadingOf(want, r);
      const Reading reading = ReadingOf(got, r);
      Comparison c = CompareImageWith(k, reading, std::min(reading.scalars, reference_reading.scalars),
                                      [&](size_t j) { return reference_reading.At(j); },
                                      fmt::format("the reference variant {}", reference->name));
      if (!c.passed) return c;
    }
  }
  return {.passed = true};
}

Reading GpuCase::ReadingOfData(const Data& data, size_t r) const {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  Reading reading;
  reading.data = &data;
  if (r < buffers_n) {
    reading.type = m.buffers[r].type;
    reading.scalars = Scalars(m.buffers[r], *reading.data);
  } else {
    const ManifestImage& image = m.images[r - buffers_n];
    reading.type = ImageElement(image.format);
    reading.format = &image.format;
    reading.size = values_.image_sizes[r - buffers_n];
    reading.outside_zero = image.outside_zero;
    reading.three_coordinates = image.three_d || image.arrayed;
    reading.scalars = reading.data->size() / image.format.channel_bytes;
  }
  return reading;
}

std::string GpuCase::CheckLabel(const std::string& key) const {
  const auto& family = manifest_->check;
  const auto own = variant_->check.find(key);
  if (own != variant_->check.end() && !(family.contains(key) && family.at(key) == own->second)) {
    return fmt::format("[[variant]] '{}'.check.{}", variant_->name, key);
  }
  return fmt::format("[check] {}", key);
}

std::string GpuCase::PointText(size_t r, int field, size_t k) const {
  const Manifest& m = *manifest_;
  if (r >= m.buffers.size()) return TexelText(r - m.buffers.size(), k);
  if (field < 0) return IndexText(m.buffers[r], k);
  const uint32_t per = m.buffers[r].type.fields[static_cast<size_t>(field)].components;
  return per == 1 ? fmt::format("element {}", k) : fmt::format("element {} component {}", k / per, k % per);
}

std::vector<double> GpuCase::Expected(const std::vector<Data>& got, size_t out_index, int field, size_t count,
                             const std::string& text, std::vector<size_t>* scalars,
                             const std::string& label, const std::vector<size_t>* points) const {
  std::vector<double> want;
  EvaluateCheck(
      got, out_index, field, count, text, scalars, label,
      [&](Expression& expression, size_t n, const Expression::Fill& fill) {
        want.resize(n);
        expression.EvaluateEach(n, fill, want.data());
      },
      points);
  return want;
}

Comparison GpuCase::CompareWithCheck(const std::vector<Data>& got, size_t i, int field, size_t count, const std::string& text,
                            const std::string& key, const GuardedResult* run) const {
  const ManifestBuffer& b = manifest_->buffers[i];
  std::vector<size_t> scalars;
  std::vector<size_t>* only = field < 0 ? nullptr : &scalars;
  std::mutex lock;
  WorstScalar worst;
  if (run != nullptr && field < 0) {
    const DeviceCheck device = CheckOnDevice(*run, got, i, text);
    if (device.refused.empty() && !device.overflow) {
      ++checks_on_device_;
      if (device.suspects.empty()) return {.passed = true};
      // Only the listed scalars can fail: the host's values there, compared as below.
      const std::vector<size_t>& points = device.suspects;
      const std::vector<double> want = Expected(got, i, -1, count, text, nullptr, "", &points);
      for (size_t j = 0; j < points.size(); ++j) {
        worst.Take(ScalarError(b.type, got[i], points[j], want[j], variant_->abs_tolerance), j, want[j]);
      }
      return Compared(b, got[i], worst, ExactComparison(b, points.size(), &points), variant_->tolerance,
                      fmt::format("{} = \"{}\"", CheckLabel(key), text), &points);
    }
  }
  ++checks_on_host_;
  const bool plain = only == nullptr && PlainFloats(b.type);
  const double abs_tolerance = variant_->abs_tolerance;
  ExpectedChunks(got, i, field, count, text, only, [&](size_t start, size_t values_n, const double* values) {
    WorstScalar part;
    if (plain) {
      for (size_t k = 0; k < values_n; ++k) {
        part.Take(FloatError(FloatAt(got[i], start + k), values[k], abs_tolerance), start + k, values[k]);
      }
    } else {
      for (size_t k = 0; k < values_n; ++k) {
        const size_t j = start + k;
        part.Take(ScalarError(b.type, got[i], only != nullptr ? scalars[j] : j, values[k], abs_tolerance), j,
                  values[k]);
      }
    }
    std::lock_guard guard(lock);
    worst.Merge(part);
  });
  // EvaluateCheck lists a member's scalars, one a value.
  const size_t n = only != nullptr ? scalars.size() : count;
  return Compared(b, got[i], worst, ExactComparison(b, n, only), variant_->tolerance,
                  fmt::format("{} = \"{}\"", CheckLabel(key), text), only);
}

void GpuCase::ExpectedChunks(const std::vector<Data>& got, size_t out_index, int field, size_t count,
                    const std::string& text, std::vector<size_t>* scalars,
                    const Expression::Consume& consume) const {
  EvaluateCheck(got, out_index, field, count, text, scalars, "",
                [&](Expression& expression, size_t n, const Expression::Fill& fill) {
                  expression.EvaluateChunks(n, fill, consume);
                });
}

void GpuCase::EvaluateCheck(const std::vector<Data>& got, size_t out_index, int field, size_t count, const std::string& text,
                   std::vector<size_t>* scalars, const std::string& label, const Evaluation& evaluate,
                   const std::vector<size_t>* points) const {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  const bool image_out = out_index >= buffers_n;
  const ElementType out_type = image_out ? ImageElement(m.images[out_index - buffers_n].format)
                                         : m.buffers[out_index].type;
  const std::string out_name =
      ResourceName(out_index) + (field < 0 ? "" : "." + out_type.fields[static_cast<size_t>(field)].name);
  const std::vector<CheckInput> inputs = CheckInputs(m);
  std::vector<Reading> readings;
  for (const CheckInput& in : inputs) readings.push_back(InputReading(in));
  std::vector<Reading> functions;
  for (size_t r = 0; r < ResourceCount(); ++r) functions.push_back(ReadingOf(got, r));
  const uint32_t per = field < 0 ? out_type.Lanes() : out_type.fields[static_cast<size_t>(field)].components;
  const size_t n = points != nullptr ? points->size() : field < 0 ? count : count * per;
  if (field >= 0) {
    scalars->resize(n);
    for (size_t p = 0; p < n; ++p) (*scalars)[p] = ScalarOf(out_type, p / per, field, static_cast<uint32_t>(p % per));
  }
  const size_t components = field < 0 ? (out_type.is_struct ? 1 : out_type.components) : per;
  const std::vector<std::string> names = CheckFunctions(m);
  BadRead bad;
  Expression expression(text, CheckVariables(m), names);
  expression.SetCall([&](size_t function, const double* args, int argc) {
    return ReadCall(functions[function], names[function], args, argc, bad);
  });
  // The sums and extremes the expression uses, each over its input once.
  const std::vector<CheckStat> stat_list = CheckStats(m);
  const std::vector<std::string> used = expression.Used();
  std::vector<double> stats(stat_list.size());
  for (size_t s = 0; s < stat_list.size(); ++s) {
    if (std::find(used.begin(), used.end(), stat_list[s].name) == used.end()) continue;
    stats[s] = Stat(readings[stat_list[s].input], stat_list[s].kind);
  }
  // The header members' values: an output's as the sequence left it, an input's as made.
  std::vector<double> header_values;
  for (const CheckHeader& h : CheckHeaders(m)) {
    const Data& data = written_[h.buffer] ? got[h.buffer] : Host(h.buffer);
    header_values.push_back(HeaderValue(m.buffers[h.buffer].header_fields[h.field], data));
  }
  // The numeric axes' values at this point: the variant's, where its own define wins.
  std::vector<double> axis_values;
  for (const std::string& axis : CheckAxes(m)) {
    auto value = variant_->numeric_defines.find(axis);
    axis_values.push_back(value != variant_->numeric_defines.end() ? value->second
                                                                     : std::numeric_limits<double>::quiet_NaN());
  }
  const double width = point_.domain.x, height = point_.domain.y;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const size_t first_coordinate = 4 + inputs.size();
  const size_t coordinates = m.images.empty() ? 0 : 3;
  const std::array<uint32_t, 3> out_size =
      image_out ? values_.image_sizes[out_index - buffers_n]
                : std::array<uint32_t, 3>{point_.domain.x, point_.domain.y, point_.domain.z};
  // EvaluatePoint made sure that every input an expression names is as long as the output.
  // Which inputs are read at the point's own scalar from one array of floats (PlainFloats): their
  // values filled by one loop, with no Get a point.
  std::vector<char> plain_input(inputs.size());
  for (size_t v = 0; v < inputs.size(); ++v) {
    plain_input[v] = points == nullptr && inputs[v].field < 0 && field < 0 && readings[v].format == nullptr &&
                     PlainFloats(readings[v].type);
  }
  auto fill = [&](size_t variable, size_t start, size_t count_, double* values) {
    if (variable >= 4 && variable < first_coordinate && plain_input[variable - 4]) {
      const Reading& reading = readings[variable - 4];
      for (size_t k = 0; k < count_; ++k) {
        values[k] = start + k < reading.scalars ? FloatAt(*reading.data, start + k) : nan;
      }
      return;
    }
    for (size_t k = 0; k < count_; ++k) {
      const size_t at = points != nullptr ? (*points)[start + k] : start + k;
      const size_t element = at / components, component = at % components;
      if (variable < 4) {
        values[k] = variable == 0   ? static_cast<double>(field < 0 && !image_out ? at : element)
                    : variable == 1 ? width
                    : variable == 2 ? height
                                    : static_cast<double>(component);
        continue;
      }
      if (variable >= first_coordinate + coordinates + stats.size() + axis_values.size()) {
        values[k] = header_values[variable - first_coordinate - coordinates - stats.size() - axis_values.size()];
        continue;
      }
      if (variable >= first_coordinate + coordinates + stats.size()) {
        values[k] = axis_values[variable - first_coordinate - coordinates - stats.size()];
        continue;
      }
      if (variable >= first_coordinate + coordinates) {
        values[k] = stats[variable - first_coordinate - coordinates];
        continue;
      }
      if (variable >= first_coordinate) {
        const size_t axis = variable - first_coordinate;
        values[k] = static_cast<double>(axis == 0   ? element % out_size[0]
                                        : axis == 1 ? element / out_size[0] % std::max<uint32_t>(out_size[1], 1)
                                                    : element / (size_t{out_size[0]} * std::max<uint32_t>(out_size[1], 1)));
        continue;
      }
      const CheckInput& in = inputs[variable - 4];
      const Reading& reading = readings[variable - 4];
      size_t scalar = at;
      if (in.field >= 0) {
        const ManifestBuffer& b = m.buffers[in.buffer];
        const uint32_t has = b.type.fields[static_cast<size_t>(in.field)].components;
        if (has > 1 && component >= has) {
          values[k] = nan;
          continue;
        }
        scalar = ScalarOf(b.type, element, in.field, has == 1 ? 0 : static_cast<uint32_t>(component));
      } else if (field >= 0) {
        const uint32_t has = reading.type.components;
        if (has > 1 && component >= has) {
          values[k] = nan;
          continue;
        }
        scalar = element * has + (has == 1 ? 0 : component);
      }
      values[k] = scalar < reading.scalars ? reading.At(scalar) : nan;
    }
  };
  try {
    evaluate(expression, n, fill);
  } catch (const ExpressionError& e) {
    std::lock_guard lock(bad.mutex);
    const size_t point = points != nullptr && e.point < n ? (*points)[e.point] : e.point;
    const std::string at = e.point < n ? fmt::format(" at {}", PointText(out_index, field, point)) : "";
    throw CheckFailure{fmt::format("{} = \"{}\"{}: {}", label.empty() ? CheckLabel(out_name) : label, text, at,
                                   bad.seen ? bad.message : e.message)};
  }
}

double GpuCase::HeaderValue(const BlockField& f, const Data& data) {
  if (data.size() < f.offset + f.bytes) return std::numeric_limits<double>::quiet_NaN();
  const ElementType one{.scalar = f.kind == 'f'   ? Scalar::kFloat
                                  : f.kind == 'i' ? Scalar::kInt
                                                  : Scalar::kUint,
                        .scalar_bytes = f.bytes,
                        .array_offset = f.offset};
  return Get(one, data, 0);
}

Comparison GpuCase::CompareHeader(const std::vector<Data>& got, size_t i, const BlockField& f, const std::string& text,
                                  const std::string& key) const {
  const ManifestBuffer& b = manifest_->buffers[i];
  // Evaluated once, as at the array's scalar 0 (i = 0; an input named alone reads its scalar 0).
  const std::vector<double> want = Expected(got, i, -1, 1, text, nullptr, CheckLabel(key));
  const double g = HeaderValue(f, got[i]);
  const double error = f.kind == 'f' ? FloatError(g, want[0], variant_->abs_tolerance)
                                     : (g == want[0] ? 0.0 : std::numeric_limits<double>::infinity());
  if (f.kind == 'f' ? error <= variant_->tolerance : error == 0) return {.passed = true};
  return {.max_relative_error = error,
          .message = f.kind == 'f' ? fmt::format("output '{}' header member {}: got {}, want {} ({} = \"{}\"): relative "
                                                 "error {:.3g}, tolerance {:.1g}",
                                                 b.name, f.key, g, want[0], CheckLabel(key), text, error,
                                                 variant_->tolerance)
                                   : fmt::format("output '{}' header member {}: got {}, want {} ({} = \"{}\"): off by {}",
                                                 b.name, f.key, g, want[0], CheckLabel(key), text, g - want[0])};
}

double GpuCase::Stat(const Reading& reading, int kind) {
  if (kind == 0) return OrderedSum(reading.scalars, [&](size_t k) { return reading.At(k); });
  std::mutex lock;
  double least = std::numeric_limits<double>::infinity(), most = -least;
  ParallelFor(reading.scalars, kScanGrain, [&](size_t begin, size_t end) {
    double part_least = std::numeric_limits<double>::infinity(), part_most = -part_least;
    for (size_t k = begin; k < end; ++k) {
      const double v = reading.At(k);
      part_least = std::min(part_least, v);
      part_most = std::max(part_most, v);
    }
    std::lock_guard guard(lock);
    least = std::min(least, part_least);
    most = std::max(most, part_most);
  });
  return kind == 1 ? least : most;
}

Comparison GpuCase::Required(const std::vector<Data>& got, const std::string& name, const std::string& text) const {
  const size_t r = ResourceNamed(name);
  const Reading reading = ReadingOf(got, r);
  std::vector<double> values;
  try {
    values = Expected(got, r, -1, reading.scalars, text, nullptr, "[require] " + name);
  } catch (const CheckFailure& e) {
    return {.max_relative_error = std::numeric_limits<double>::infinity(), .message = e.message};
  }
  if (const size_t k = FirstWhere(values.size(), [&](size_t at) { return values[at] == 0; }); k < values.size()) {
    const std::string where = r < manifest_->buffers.size() ? IndexText(manifest_->buffers[r], k)
                                                             : TexelText(r - manifest_->buffers.size(), k);
    return {.max_relative_error = std::numeric_limits<double>::infinity(),
            .worst_index = k,
            .message = fmt::format("[require] {} = \"{}\" is false at {} ('{}' there is {})", name, text, where,
                                   name, reading.At(k))};
  }
  return {.passed = true};
}

std::string GpuCase::ImageLabel(size_t k) const {
  const ManifestImage& image = manifest_->images[k];
  if (image.view_of < 0) return fmt::format("'{}'", image.name);
  return fmt::format("'{}' (level {} of '{}')", image.name, image.view_level, manifest_->images[RootOf(k)].name);
}

std::string GpuCase::TexelText(size_t k, size_t scalar) const {
  const auto& s = values_.image_sizes[k];
  const uint32_t channels = manifest_->images[k].format.channels;
  const size_t texel = scalar / channels;
  const ManifestImage& image = manifest_->images[k];
  const size_t z = texel / (size_t{s[0]} * s[1]);
  const std::string at = image.arrayed ? fmt::format("({}, {}) of layer {}", texel % s[0], texel / s[0] % s[1], z)
                         : s[2] > 1    ? fmt::format("({}, {}, {})", texel % s[0], texel / s[0] % s[1], z)
                                       : fmt::format("({}, {})", texel % s[0], texel / s[0]);
  return channels == 1 ? fmt::format("texel {}", at) : fmt::format("texel {} channel {}", at, scalar % channels);
}

Comparison GpuCase::UnwrittenImage(size_t k, const Data& got) const {
  const ManifestImage& image = manifest_->images[k];
  const ElementType t = ImageElement(image.format);
  const bool poisoned = !image.init_given && !swapped_.contains(image.name);
  // An output checked against an `expect` file may hold what the file holds, NaNs and infinities too.
  const bool finite = !image.expect.Given();
  const size_t channels = got.size() / image.format.channel_bytes;
  const size_t j = FirstWhere(channels, [&](size_t at) {
    return (poisoned && StillPoison(t, got, at)) || (finite && !std::isfinite(Get(t, got, at)));
  });
  if (j == channels) return {.passed = true};
  const bool poison = poisoned && StillPoison(t, got, j);
  const double g = Get(t, got, j);
  return {.max_relative_error = std::numeric_limits<double>::infinity(),
          .worst_index = j,
          .message = poison ? fmt::format("output image {} {}: unwritten (still the poison 0x{:08x})", ImageLabel(k),
                                          TexelText(k, j), kPoison)
                            : fmt::format("output image {} {}: got {}, not a finite number", ImageLabel(k),
                                          TexelText(k, j), g)};
}

Comparison GpuCase::CompareImage(size_t k, const Reading& got, const std::vector<double>& want, const std::string& against,
                                 const std::vector<size_t>* only, std::optional<std::array<double, 2>> tolerances) const {
  return CompareImageWith(k, got, only != nullptr ? want.size() : std::min(want.size(), got.scalars),
                          [&](size_t j) { return want[j]; }, against, only, tolerances);
}

Comparison GpuCase::CompareImageWith(size_t k, const Reading& got, size_t n, const std::function<double(size_t)>& want,
                                     const std::string& against, const std::vector<size_t>* only,
                                     std::optional<std::array<double, 2>> tolerances) const {
  const double tolerance = tolerances ? (*tolerances)[0] : variant_->tolerance;
  const double abs_tolerance = tolerances ? (*tolerances)[1] : variant_->abs_tolerance;
  const ManifestImage& image = manifest_->images[k];
  const bool exact = image.format.Integer();
  Comparison c;
  auto scalar = [&](size_t j) { return only != nullptr ? (*only)[j] : j; };
  const Worst worst = WorstOf(n, [&](size_t j) {
    const double g = got.At(scalar(j));
    const double w = want(j);
    if (exact) return g == w ? 0.0 : std::numeric_limits<double>::infinity();
    if (!std::isfinite(g)) return (std::isnan(g) && std::isnan(w)) || g == w ? 0.0 : std::numeric_limits<double>::infinity();
    if (std::abs(g - w) <= abs_tolerance) return 0.0;
    return std::abs(g - w) / std::max(std::abs(w), 1e-6);
  });
  c.max_relative_error = worst.error;
  c.worst_index = scalar(worst.index);
  c.passed = exact ? c.max_relative_error == 0 : c.max_relative_error <= tolerance;
  if (!c.passed) {
    const size_t j = c.worst_index;
    const double w = want(worst.index);
    c.message = exact
                    ? fmt::format("output image {} {}: got {}, want {} ({})", ImageLabel(k), TexelText(k, j), got.At(j),
                                  w, against)
                    : fmt::format("output image {} {}: got {}, want {} ({}): relative error {:.3g}, tolerance {:.1g}{}",
                                  ImageLabel(k), TexelText(k, j), got.At(j), w, against, c.max_relative_error,
                                  tolerance,
                                  image.format.kind == ImageFormat::Kind::kFloat
                                      ? ""
                                      : fmt::format(" (a {} channel is stored in steps of 1/{}: give abs_tolerance)",
                                                    image.format.glsl, ImageScale(image.format)));
  }
  return c;
}

}  // namespace manifest_detail

}  // namespace csbench
