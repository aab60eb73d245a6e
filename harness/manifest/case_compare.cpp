// A manifest case's comparisons: outputs against expected values, unwritten elements, image reads.
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
#include "harness/manifest/case_parts.hpp"
#include "harness/manifest/expression.hpp"
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

std::string IndexText(const ManifestBuffer& b, size_t i) {
  if (b.type.is_struct) {
    const Lane lane = LaneOf(b.type, i);
    const StructField& f = b.type.fields[static_cast<size_t>(lane.field)];
    return f.components == 1 ? fmt::format("element {} member {}", i / b.type.Lanes(), f.name)
                             : fmt::format("element {} member {} component {}", i / b.type.Lanes(), f.name, lane.component);
  }
  const uint32_t n = b.type.components;
  return n == 1 ? fmt::format("index {}", i) : fmt::format("index {} (element {}, component {})", i, i / n, i % n);
}

Comparison Unwritten(const ManifestBuffer& b, const Data& got, bool started, bool finite) {
  const size_t i =
      PlainFloats(b.type)
          ? FirstInRanges(Scalars(b, got),
                          [&](size_t begin, size_t end) {
                            // A float's bits: the poison's, or an exponent of all ones (not finite).
                            for (size_t k = begin; k < end; ++k) {
                              uint32_t bits = 0;
                              std::memcpy(&bits, got.data() + 4 * k, 4);
                              if ((!started && bits == kPoison) || (finite && (bits & 0x7f800000u) == 0x7f800000u)) return k;
                            }
                            return end;
                          })
          : FirstWhere(Scalars(b, got), [&](size_t k) {
              return (!started && StillPoison(b.type, got, k)) || (finite && !std::isfinite(Get(b.type, got, k)));
            });
  if (i == Scalars(b, got)) return {.passed = true};
  const double g = Get(b.type, got, i);
  const bool poison = !started && StillPoison(b.type, got, i);
  // What was seen, and no more: whether the kernel never wrote the element or read it before
  // writing (a NaN computed from the poison keeps its bits on some devices and becomes the
  // canonical NaN on others, NVIDIA's) is told by a second run (GpuCase::Checked).
  const std::string message =
      poison        ? fmt::format("output '{}' {}: unwritten (still the poison 0x{:08x})", b.name, IndexText(b, i), kPoison)
      : std::isnan(g) ? fmt::format("output '{}' {}: NaN", b.name, IndexText(b, i))
                      : fmt::format("output '{}' {}: got {}, not a finite number", b.name, IndexText(b, i), g);
  return {.max_relative_error = std::numeric_limits<double>::infinity(), .worst_index = i, .message = message};
}

double FloatError(double g, double want, double abs_tolerance) {
  // Within the absolute bound: as good as exact.
  // A value that is not finite matches only its like: NaN a NaN, an infinity the same infinity.
  if ((std::isfinite(g) && std::abs(g - want) <= abs_tolerance) || (std::isnan(want) && std::isnan(g)) ||
      (std::isinf(want) && g == want)) {
    return 0.0;
  }
  return std::isfinite(g) ? std::abs(g - want) / std::max(std::abs(want), 1e-6) : std::numeric_limits<double>::infinity();
}

double ScalarError(const ElementType& t, const Data& got, size_t i, double want, double abs_tolerance) {
  const double g = Get(t, got, i);
  if (LaneOf(t, i).scalar != Scalar::kFloat) return g == want ? 0.0 : std::numeric_limits<double>::infinity();
  return FloatError(g, want, abs_tolerance);
}

bool ExactComparison(const ManifestBuffer& b, size_t n, const std::vector<size_t>* only) {
  for (size_t j = 0; j < std::min<size_t>(n, only != nullptr ? 1 : b.type.Lanes()); ++j) {
    if (LaneOf(b.type, only != nullptr ? (*only)[j] : j).scalar == Scalar::kFloat) return false;
  }
  return true;
}

Comparison Compared(const ManifestBuffer& b, const Data& got, const WorstScalar& worst, bool exact, double tolerance,
                    const std::string& against, const std::vector<size_t>* only) {
  Comparison c;
  c.max_relative_error = worst.error;
  c.worst_index = only != nullptr && worst.j < only->size() ? (*only)[worst.j] : worst.j;
  c.passed = exact ? c.max_relative_error == 0 : c.max_relative_error <= tolerance;
  if (!c.passed) {
    const size_t i = c.worst_index;
    const bool is_float = LaneOf(b.type, i).scalar == Scalar::kFloat;
    const double g = Get(b.type, got, i);
    c.message = !is_float ? fmt::format("output '{}' {}: got {}, want {} ({}): off by {}", b.name, IndexText(b, i), g,
                                        worst.want, against, g - worst.want)
                          : fmt::format("output '{}' {}: got {}, want {} ({}): relative error {:.3g}, tolerance {:.1g}",
                                        b.name, IndexText(b, i), Get(b.type, got, i), worst.want, against,
                                        c.max_relative_error, tolerance);
  }
  return c;
}

Comparison CompareScalars(const ManifestBuffer& b, const Data& got, const std::vector<double>& want, double tolerance,
                          double abs_tolerance, const std::string& against, const std::vector<size_t>* only) {
  const Worst worst = WorstOf(want.size(), [&](size_t j) {
    return ScalarError(b.type, got, only != nullptr ? (*only)[j] : j, want[j], abs_tolerance);
  });
  return Compared(b, got, {worst.error, worst.index, want.empty() ? 0.0 : want[worst.index]},
                  ExactComparison(b, want.size(), only), tolerance, against, only);
}

Comparison CompareBuffers(const ManifestBuffer& b, const Data& got, const Data& want, double tolerance,
                          double abs_tolerance, const std::string& against) {
  const size_t n = Scalars(b, want);
  const Worst worst =
      WorstOf(n, [&](size_t j) { return ScalarError(b.type, got, j, Get(b.type, want, j), abs_tolerance); });
  return Compared(b, got, {worst.error, worst.index, n == 0 ? 0.0 : Get(b.type, want, worst.index)},
                  ExactComparison(b, n, nullptr), tolerance, against, nullptr);
}

double ReadCall(const Reading& r, const std::string& name, const double* args, int count, BadRead& bad) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto whole = [](double v) { return std::isfinite(v) && v == std::floor(v); };
  if (r.format == nullptr) {
    if (count != 1 || !whole(args[0]) || args[0] < 0 || args[0] >= static_cast<double>(r.scalars)) {
      bad.Note(fmt::format("reads {}({}), outside its {} values (0 to {})", name, count == 1 ? args[0] : nan, r.scalars,
                           r.scalars == 0 ? 0 : r.scalars - 1));
      return nan;
    }
    return r.At(static_cast<size_t>(args[0]));
  }
  const int coordinates = r.three_coordinates || r.size[2] > 1 ? 3 : 2;
  const uint32_t channels = r.format->channels;
  double c = count > coordinates ? args[coordinates] : 0;
  if (!whole(c) || c < 0 || c >= channels) {
    bad.Note(fmt::format("reads {} with channel {}: a {} texel has channels 0 to {}", name, c, r.format->glsl,
                         channels - 1));
    return nan;
  }
  std::array<int64_t, 3> at{0, 0, 0};
  bool outside = false;
  for (int k = 0; k < coordinates; ++k) {
    if (!whole(args[k]) || std::abs(args[k]) > 1e9) {
      bad.Note(fmt::format("reads {} at a coordinate of {}: texel coordinates are whole numbers", name, args[k]));
      return nan;
    }
    const auto v = static_cast<int64_t>(args[k]);
    const int64_t last = static_cast<int64_t>(r.size[static_cast<size_t>(k)]) - 1;
    if (v < 0 || v > last) outside = true;
    at[static_cast<size_t>(k)] = std::clamp<int64_t>(v, 0, last);
  }
  if (outside && r.outside_zero) return 0;
  const size_t texel = (static_cast<size_t>(at[2]) * r.size[1] + static_cast<size_t>(at[1])) * r.size[0] +
                       static_cast<size_t>(at[0]);
  return r.At(texel * channels + static_cast<size_t>(c));
}

std::string BytesText(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace manifest_detail

}  // namespace csbench
