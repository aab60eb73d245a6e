// A user's family, declared in a TOML manifest (harness/manifest/manifest.hpp): its descriptor built from
// the manifest, and its GPU case. The case does what every built-in family's does: inputs from a
// fixed seed, rotated past the last-level cache under --cache=cold; outputs poisoned (or started
// from their init), then checked against the reference variant run on the same device and against
// the manifest's [check] expressions, before anything is timed; the timed loop and its counters
// are the harness's (MeasureDispatches, or MeasureTimedRuns where outputs are restored). A user's
// kernel is a stranger's: its check run also gives every storage buffer a guard region and
// compares its inputs afterwards, so that a kernel that writes where it must not fails.
#include "bench/manifest.hpp"

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
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench::manifest {
namespace {

using Data = std::vector<std::byte>;

// The inputs of the points that share one set of input sizes (successive benchmarks of a
// domain): their values, and their device copies. One set is kept at a time.
struct Inputs {
  std::string key;
  std::vector<Data> host;  // per resource (buffers, then images); empty for one the sequence writes
  std::vector<std::unique_ptr<RotatingInput>> device;          // per buffer
  std::vector<std::vector<std::unique_ptr<Image>>> images;     // per image, its copies
  uint32_t copies = 1;
  uint32_t image_copies = 1;  // copies of each input image: `copies` where there is one, else 1
};

// Copies of the input images under --cache=cold at most: each is a descriptor set of its own.
constexpr uint32_t kMaxImageCopies = 64;

// The reference variant's outputs at one point, which every other variant of the point is
// compared with; those of one point are kept at a time.
struct ReferenceOutputs {
  std::string key;
  std::vector<Data> outputs;  // per resource; empty for an input
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

// A buffer's scalars as the host holds them: `count` elements of the buffer's type, each at its
// std430 stride (a 3-vector's fourth scalar is padding). Scalar k is lane k % Lanes() of element
// k / Lanes(): a vector's component, or a struct's member's component in declaration order.
size_t Scalars(const ManifestBuffer& b, const Data& data) { return data.size() / b.type.Bytes() * b.type.Lanes(); }

struct Lane {
  size_t offset = 0;  // in the buffer
  Scalar scalar = Scalar::kFloat;
  uint32_t bytes = 4;
  int field = -1;          // a struct's member
  uint32_t component = 0;  // in the vector or member
};
Lane LaneOf(const ElementType& t, size_t k) {
  if (!t.is_struct && t.components == 1) return {k * t.Bytes(), t.scalar, t.scalar_bytes, -1, 0};
  if (!t.is_struct) {
    return {k / t.components * t.Bytes() + k % t.components * t.scalar_bytes, t.scalar, t.scalar_bytes, -1,
            static_cast<uint32_t>(k % t.components)};
  }
  const uint32_t lanes = t.Lanes();
  uint32_t lane = static_cast<uint32_t>(k % lanes);
  for (size_t f = 0; f < t.fields.size(); ++f) {
    const StructField& field = t.fields[f];
    if (lane < field.components) {
      return {k / lanes * t.stride + field.offset + lane * field.component_stride, field.scalar, field.scalar_bytes,
              static_cast<int>(f), lane};
    }
    lane -= field.components;
  }
  return {};
}
// The scalar index of member `field`'s component `component` of `element`.
size_t ScalarOf(const ElementType& t, size_t element, int field, uint32_t component) {
  size_t lane = component;
  for (int f = 0; f < field; ++f) lane += t.fields[static_cast<size_t>(f)].components;
  return element * t.Lanes() + lane;
}

// Scalar k of `data` as a number.
double Get(const ElementType& t, const Data& data, size_t k) {
  const Lane lane = LaneOf(t, k);
  const std::byte* at = data.data() + lane.offset;
  uint64_t bits = 0;
  // Each width its own fixed-size copy (little-endian hosts): a copy of a variable size was a call
  // to memcpy for every scalar a check reads.
  if (lane.bytes == 1) {
    bits = std::to_integer<uint8_t>(*at);
  } else if (lane.bytes == 2) {
    uint16_t v = 0;
    std::memcpy(&v, at, 2);
    bits = v;
  } else if (lane.bytes == 4) {
    uint32_t v = 0;
    std::memcpy(&v, at, 4);
    bits = v;
  } else {
    std::memcpy(&bits, at, 8);
  }
  const int width = static_cast<int>(8 * lane.bytes);
  switch (lane.scalar) {
    case Scalar::kFloat:
      return lane.bytes == 2   ? HalfToFloat(static_cast<uint16_t>(bits))
             : lane.bytes == 4 ? std::bit_cast<float>(static_cast<uint32_t>(bits))
                               : std::bit_cast<double>(bits);
    case Scalar::kInt: {
      // Sign-extend from the scalar's width.
      const uint64_t sign = uint64_t{1} << (width - 1);
      const uint64_t value = width == 64 ? bits : (bits ^ sign) - sign;
      return static_cast<double>(static_cast<int64_t>(value));
    }
    case Scalar::kUint:
      return static_cast<double>(bits);
  }
  return 0;
}

// Whether a buffer of `t` is one array of 32-bit floats (no struct, float scalars, no padding
// between elements), scalar k at byte 4k: the checks' fast paths read it so, with no Get a scalar.
bool PlainFloats(const ElementType& t) {
  return !t.is_struct && t.scalar == Scalar::kFloat && t.scalar_bytes == 4 && t.Bytes() == t.components * 4u;
}
float FloatAt(const Data& data, size_t k) {
  float v = 0;
  std::memcpy(&v, data.data() + 4 * k, 4);
  return v;
}

// Sets scalar k of `data` to `value` (whole and in range for an integer type; any float).
void Set(const ElementType& t, Data& data, size_t k, double value) {
  const Lane lane = LaneOf(t, k);
  uint64_t bits = 0;
  if (lane.scalar == Scalar::kFloat) {
    bits = lane.bytes == 2   ? FloatToHalf(static_cast<float>(value))
           : lane.bytes == 4 ? std::bit_cast<uint32_t>(static_cast<float>(value))
                             : std::bit_cast<uint64_t>(value);
  } else {
    bits = value < 0 ? static_cast<uint64_t>(static_cast<int64_t>(value)) : static_cast<uint64_t>(value);
  }
  std::memcpy(data.data() + lane.offset, &bits, lane.bytes);
}

// Whether scalar k of `data` still holds the poison's bytes at its place (the buffer was filled
// with kPoison's 4 bytes over and over). An 8-bit scalar is never called unwritten: one byte in 256
// would equal the poison by chance.
bool StillPoison(const ElementType& t, const Data& data, size_t k) {
  const Lane lane = LaneOf(t, k);
  if (lane.bytes < 2) return false;
  for (size_t i = 0; i < lane.bytes; ++i) {
    if (data[lane.offset + i] != static_cast<std::byte>(kPoison >> (8 * ((lane.offset + i) % 4)))) return false;
  }
  return true;
}

// The scalar whose bytes hold byte `byte` of a buffer of `t`; nullopt for padding.
std::optional<size_t> ScalarAtByte(const ElementType& t, size_t byte) {
  const size_t element = byte / t.Bytes(), lanes = t.Lanes();
  for (size_t lane = 0; lane < lanes; ++lane) {
    const Lane at = LaneOf(t, element * lanes + lane);
    if (byte >= at.offset && byte < at.offset + at.bytes) return element * lanes + lane;
  }
  return std::nullopt;
}

std::string IndexText(const ManifestBuffer& b, size_t i);

// The scalars one init fills: `n` points, point p the scalar Scalar(p) of element Element(p) and
// component Component(p) (a whole buffer of a scalar or vector type: every scalar, i its index; a
// struct's member: that member's, i the element).
struct InitTarget {
  size_t n = 0;
  std::function<size_t(size_t)> scalar, index, component;
  Scalar type = Scalar::kFloat;
  uint32_t bytes = 4;
  std::string glsl, what;  // the type, and "buffer 'b'" or "buffer 'b' member m" for messages
  // An image's: point p's texel coordinates (the init variables x, y, z), and a value as its channel
  // stores it (a normalised format's step).
  std::function<std::array<double, 3>(size_t)> texel;
  std::function<double(double)> stored;
  // A normalised channel's range: a value outside it is refused, not clamped.
  std::optional<std::pair<double, double>> range;
};

// Fills `target`'s scalars of `data` by `init`.
void Fill(const Manifest& m, const ManifestBuffer& b, const ManifestBuffer::MemberInit& init, const InitTarget& target,
          Data& data, const Point& point, const DeviceValues& device) {
  const ElementType& t = b.type;
  const bool is_float = target.type == Scalar::kFloat;
  const uint64_t base = SplitMix64(SeedOf(m.name, b.name));
  auto stored = [&](double v) { return target.stored ? target.stored(v) : v; };
  switch (init.init) {
    case ManifestBuffer::Init::kZero:
      break;
    case ManifestBuffer::Init::kRandom:
      // Every scalar its own draw (a hash of its index), so the threads' ranges fill what one loop would.
      ParallelFor(target.n, kScanGrain, [&](size_t begin, size_t end) {
        for (size_t p = begin; p < end; ++p) {
          const size_t k = target.scalar(p);
          const uint64_t draw = SplitMix64(base + k);
          // Floats uniform in [0, 1); integers 16 bits of the draw (8 for an 8-bit type), so that
          // sums of many stay exact in a double.
          Set(t, data, k,
              is_float ? static_cast<double>(draw >> 40) * 0x1.0p-24
                       : static_cast<double>(draw >> (target.bytes == 1 ? 57 : 48)));
        }
      });
      break;
    case ManifestBuffer::Init::kIota:
      ParallelFor(target.n, kScanGrain, [&](size_t begin, size_t end) {
        for (size_t p = begin; p < end; ++p) {
          // An integer type wraps around at its width, as the shader's own arithmetic would.
          const uint64_t mask = target.bytes == 8 ? ~0ull : (1ull << (8 * target.bytes)) - 1;
          const size_t i = target.index(p);
          Set(t, data, target.scalar(p), is_float ? static_cast<double>(i) : static_cast<double>(i & mask));
        }
      });
      break;
    case ManifestBuffer::Init::kValue:
      ParallelFor(target.n, kScanGrain, [&](size_t begin, size_t end) {
        for (size_t p = begin; p < end; ++p) Set(t, data, target.scalar(p), stored(init.value));
      });
      break;
    case ManifestBuffer::Init::kExpression: {
      Expression expression(InitExpressionText(init.expression), target.texel ? ImageInitVariables() : InitVariables());
      const std::array<double, 7> fixed = {static_cast<double>(point.domain.x), static_cast<double>(point.domain.y),
                                           static_cast<double>(point.workgroup.x), static_cast<double>(point.workgroup.y),
                                           device.subgroup_size, device.vendor_id, device.device_id};
      std::vector<double> values(target.n);
      try {
        expression.EvaluateEach(
            target.n,
            [&](size_t variable, size_t start, size_t n, double* out) {
              for (size_t k = 0; k < n; ++k) {
                const size_t p = start + k;
                out[k] = variable == 0    ? static_cast<double>(target.index(p))
                         : variable == 8  ? static_cast<double>(target.component(p))
                         : variable == 9  ? static_cast<double>(SplitMix64(base + target.scalar(p)) >> 11) * 0x1.0p-53
                         : variable == 10 ? static_cast<double>(point.domain.z)
                         : variable == 11 ? static_cast<double>(point.workgroup.z)
                         : variable >= 12 ? target.texel(p)[variable - 12]
                                          : fixed[variable - 1];
              }
            },
            values.data());
      } catch (const ExpressionError& e) {
        throw Error(fmt::format("{}: init \"{}\": {}", target.what, init.expression, e.message));
      }
      // On every host thread; a value out of range throws from its range, and the first range's
      // error is the one thrown: the lowest index's, as one loop would find.
      ParallelFor(target.n, kScanGrain, [&](size_t begin, size_t end) {
        for (size_t p = begin; p < end; ++p) {
          if (target.range && (values[p] < target.range->first || values[p] > target.range->second)) {
            throw Error(fmt::format("{}: init \"{}\" gives {} at {}: a channel of {} takes values from {} to {}",
                                    target.what, init.expression, values[p], target.index(p), target.glsl,
                                    target.range->first, target.range->second));
          }
          const double v = stored(values[p]);
          if (!is_float) {
            const int bits = static_cast<int>(8 * target.bytes);
            const double least = target.type == Scalar::kInt ? -std::ldexp(1.0, bits - 1) : 0;
            const double most = target.type == Scalar::kInt ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
            if (v != std::floor(v) || v < least || v > most) {
              throw Error(fmt::format("{}: init \"{}\" gives {} at {}: a {} takes whole numbers from {} to {}",
                                      target.what, init.expression, v, IndexText(b, target.scalar(p)), target.glsl,
                                      least, most));
            }
          }
          Set(t, data, target.scalar(p), v);
        }
      });
      break;
    }
  }
}

Data MakeInput(const Manifest& m, const ManifestBuffer& b, uint64_t count, const Point& point,
               const DeviceValues& device) {
  const ElementType& t = b.type;
  Data data(count * t.Bytes());
  const ManifestBuffer::MemberInit whole{.init = b.init, .value = b.value, .expression = b.init_expression};
  if (t.is_struct) {
    // Member by member: its own init where the table names it, else the buffer's (random by default).
    for (size_t f = 0; f < t.fields.size(); ++f) {
      const StructField& field = t.fields[f];
      auto own = b.member_inits.find(field.name);
      const uint32_t n = field.components;
      InitTarget target{.n = count * n,
                        .scalar = [&t, f, n](size_t p) { return ScalarOf(t, p / n, static_cast<int>(f), static_cast<uint32_t>(p % n)); },
                        .index = [n](size_t p) { return p / n; },
                        .component = [n](size_t p) { return p % n; },
                        .type = field.scalar,
                        .bytes = field.scalar_bytes,
                        .glsl = field.glsl,
                        .what = fmt::format("buffer '{}' member {}", b.name, field.name)};
      Fill(m, b, own != b.member_inits.end() ? own->second : whole, target, data, point, device);
    }
    return data;
  }
  const size_t scalars = count * t.components;
  if (b.init == ManifestBuffer::Init::kRandom && t.scalar == Scalar::kFloat && t.scalar_bytes == 4 && t.components != 3) {
    // The stream csbench has always drawn: a manifest's float inputs stay what they were.
    const std::span<float> floats(reinterpret_cast<float*>(data.data()), scalars);
    ParallelFor(scalars, kScanGrain, [&](size_t begin, size_t end) {
      FillUniform(floats.subspan(begin, end - begin), SeedOf(m.name, b.name), begin);
    });
    return data;
  }
  const uint32_t n = t.components;
  Fill(m, b, whole,
       {.n = scalars,
        .scalar = [](size_t p) { return p; },
        .index = [](size_t p) { return p; },
        .component = [n](size_t p) { return p % n; },
        .type = t.scalar,
        .bytes = t.scalar_bytes,
        .glsl = t.glsl,
        .what = fmt::format("buffer '{}'", b.name)},
       data, point, device);
  return data;
}

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

// `bytes` filled with the poison's bytes, word after word, on every host thread.
void PoisonBytes(std::span<std::byte> bytes) {
  std::array<std::byte, 4> word;
  for (size_t at = 0; at < 4; ++at) word[at] = static_cast<std::byte>(kPoison >> (8 * at));
  ParallelFor(bytes.size(), size_t{1} << 22, [&](size_t begin, size_t end) {
    for (size_t at = begin; at < end; ++at) bytes[at] = word[at % 4];
  }, 4);
}

// Fails at the first scalar of output `got` that no invocation wrote (still poisoned, where the
// output started from the poison) or that is not a finite float.
Comparison Unwritten(const ManifestBuffer& b, const Data& got, bool started) {
  const size_t i =
      PlainFloats(b.type)
          ? FirstInRanges(Scalars(b, got),
                          [&](size_t begin, size_t end) {
                            // A float's bits: the poison's, or an exponent of all ones (not finite).
                            for (size_t k = begin; k < end; ++k) {
                              uint32_t bits = 0;
                              std::memcpy(&bits, got.data() + 4 * k, 4);
                              if ((!started && bits == kPoison) || (bits & 0x7f800000u) == 0x7f800000u) return k;
                            }
                            return end;
                          })
          : FirstWhere(Scalars(b, got), [&](size_t k) {
              return (!started && StillPoison(b.type, got, k)) || !std::isfinite(Get(b.type, got, k));
            });
  if (i == Scalars(b, got)) return {.passed = true};
  const double g = Get(b.type, got, i);
  const bool poison = !started && StillPoison(b.type, got, i);
  // A NaN computed from the poison keeps its bits on some devices and becomes the canonical NaN
  // on others (NVIDIA's): either way the output may have been accumulated into.
  const std::string message =
      poison ? fmt::format("output '{}' {}: unwritten, or NaN carried from the poison (0x{:08x}): an output the "
                           "kernel accumulates into needs `init`",
                           b.name, IndexText(b, i), kPoison)
      : std::isnan(g) && !started
          ? fmt::format("output '{}' {}: got NaN, computed or carried from the poison (a NaN): an output the "
                        "kernel accumulates into needs `init`",
                        b.name, IndexText(b, i))
          : fmt::format("output '{}' {}: got {}, not a finite number", b.name, IndexText(b, i), g);
  return {.max_relative_error = std::numeric_limits<double>::infinity(), .worst_index = i, .message = message};
}

// Scalar i of `got` against the value `want`: 0 where it matches (a float within `abs_tolerance`
// or NaN where NaN is wanted; an integer exactly); else a float's relative error (floor 1e-6, as
// the built-in families' Compare), infinite for an integer that differs or a float not finite.
double FloatError(double g, double want, double abs_tolerance) {
  // Within the absolute bound: as good as exact.
  if ((std::isfinite(g) && std::abs(g - want) <= abs_tolerance) || (std::isnan(want) && std::isnan(g))) return 0.0;
  return std::isfinite(g) ? std::abs(g - want) / std::max(std::abs(want), 1e-6) : std::numeric_limits<double>::infinity();
}
double ScalarError(const ElementType& t, const Data& got, size_t i, double want, double abs_tolerance) {
  const double g = Get(t, got, i);
  if (LaneOf(t, i).scalar != Scalar::kFloat) return g == want ? 0.0 : std::numeric_limits<double>::infinity();
  return FloatError(g, want, abs_tolerance);
}

// The worst of the scalars compared: its error (a NaN counted infinite), its index j among the
// values wanted, and the value wanted there. Kept as one loop that keeps the first strictly
// greater error would keep it, whatever the threads' ranges: WorstOf's rule, for a comparison
// whose wanted values are gone once compared (CompareWithCheck).
struct WorstScalar {
  double error = 0;
  size_t j = 0;
  double want = 0;
  // In order of j within one range.
  void Take(double e, size_t at, double wanted) {
    if (std::isnan(e)) e = std::numeric_limits<double>::infinity();
    if (e > error) *this = {e, at, wanted};
  }
  void Merge(const WorstScalar& part) {
    if (part.error > error || (part.error == error && part.error > 0 && part.j < j)) *this = part;
  }
};

// Whether the comparison is exact: no scalar compared is a float. The scalars of one element (or
// of the one member `only` lists) hold every type compared. Decided before the threads, which each
// wrote a shared flag at every float before: 16 cores took 4.3 s over 134M floats, passing its
// cache line round.
bool ExactComparison(const ManifestBuffer& b, size_t n, const std::vector<size_t>* only) {
  for (size_t j = 0; j < std::min<size_t>(n, only != nullptr ? 1 : b.type.Lanes()); ++j) {
    if (LaneOf(b.type, only != nullptr ? (*only)[j] : j).scalar == Scalar::kFloat) return false;
  }
  return true;
}

// The comparison `worst` makes of one buffer: integers exactly (an integer's error is 0 or
// infinite), floats within `tolerance`, with the message of a failure.
Comparison Compared(const ManifestBuffer& b, const Data& got, const WorstScalar& worst, bool exact, double tolerance,
                    const std::string& against, const std::vector<size_t>* only) {
  Comparison c;
  c.max_relative_error = worst.error;
  c.worst_index = only != nullptr && worst.j < only->size() ? (*only)[worst.j] : worst.j;
  c.passed = exact ? c.max_relative_error == 0 : c.max_relative_error <= tolerance;
  if (!c.passed) {
    const size_t i = c.worst_index;
    const bool is_float = LaneOf(b.type, i).scalar == Scalar::kFloat;
    c.message = !is_float ? fmt::format("output '{}' {}: got {}, want {} ({})", b.name, IndexText(b, i),
                                        Get(b.type, got, i), worst.want, against)
                          : fmt::format("output '{}' {}: got {}, want {} ({}): relative error {:.3g}, tolerance {:.1g}",
                                        b.name, IndexText(b, i), Get(b.type, got, i), worst.want, against,
                                        c.max_relative_error, tolerance);
  }
  return c;
}

// The worst scalar of `got` against `want` (one buffer), compared as ScalarError does, over every
// host thread. `only`: the scalars want[j] is for (a struct member's); null: want[j] is scalar j's.
Comparison CompareScalars(const ManifestBuffer& b, const Data& got, const std::vector<double>& want, double tolerance,
                          double abs_tolerance, const std::string& against, const std::vector<size_t>* only = nullptr) {
  const Worst worst = WorstOf(want.size(), [&](size_t j) {
    return ScalarError(b.type, got, only != nullptr ? (*only)[j] : j, want[j], abs_tolerance);
  });
  return Compared(b, got, {worst.error, worst.index, want.empty() ? 0.0 : want[worst.index]},
                  ExactComparison(b, want.size(), only), tolerance, against, only);
}

// The expressions' device variables on `info`'s device.
DeviceValues ValuesOf(const DeviceInfo& info) {
  return {.subgroup_size = static_cast<double>(info.subgroup_size),
          .vendor_id = static_cast<double>(info.vendor_id),
          .device_id = static_cast<double>(info.device_id)};
}

// The subgroup size a point of a family with a /sg<N> axis requires (0: none).
uint32_t SubgroupOf(const Point& point) {
  for (const Coordinate& c : point.axes) {
    if (c.axis == "subgroup_size") return static_cast<uint32_t>(c.value.number());
  }
  return 0;
}

// The expressions' device variables at `point`: SUBGROUP_SIZE is the size the point requires, where
// it requires one.
DeviceValues ValuesAt(const DeviceInfo& info, const Point& point) {
  DeviceValues values = ValuesOf(info);
  if (const uint32_t size = SubgroupOf(point); size != 0) values.subgroup_size = size;
  return values;
}

// EvaluatePoint, its error an Error (registration evaluated every point already: this is a
// guard, so that no ManifestError can escape a benchmark).
PointValues Evaluated(const Manifest& m, const ManifestVariant& v, const Point& point, const DeviceValues& device) {
  try {
    return EvaluatePoint(m, v, point.workgroup, point.domain, device);
  } catch (const ManifestError& e) {
    throw Error(e.message);
  }
}

// An image's channels as an element type whose scalars are the stored numbers: a float format's
// floats, a normalised format's unsigned or signed integers (ImageValue scales them), an integer
// format's integers.
ElementType ImageElement(const ImageFormat& f) {
  ElementType t;
  t.glsl = f.glsl;
  t.scalar = f.kind == ImageFormat::Kind::kFloat                                             ? Scalar::kFloat
             : f.kind == ImageFormat::Kind::kUnorm || f.kind == ImageFormat::Kind::kUint ? Scalar::kUint
                                                                                           : Scalar::kInt;
  t.components = f.channels;
  t.scalar_bytes = f.channel_bytes;
  return t;
}

// The largest stored number of a normalised channel (1 for the others).
double ImageScale(const ImageFormat& f) {
  const int bits = static_cast<int>(8 * f.channel_bytes);
  if (f.kind == ImageFormat::Kind::kUnorm) return std::ldexp(1.0, bits) - 1;
  if (f.kind == ImageFormat::Kind::kSnorm) return std::ldexp(1.0, bits - 1) - 1;
  return 1;
}

// A stored channel as the shader reads it: a normalised one scaled to [0, 1] or [-1, 1].
double ImageValue(const ImageFormat& f, double stored) {
  if (f.kind == ImageFormat::Kind::kUnorm) return stored / ImageScale(f);
  if (f.kind == ImageFormat::Kind::kSnorm) return std::max(stored / ImageScale(f), -1.0);
  return stored;
}

// A value as a normalised channel stores it (rounded to the nearest step, within the range); others
// unchanged.
double ImageStored(const ImageFormat& f, double value) {
  if (f.kind == ImageFormat::Kind::kUnorm) return std::round(std::clamp(value, 0.0, 1.0) * ImageScale(f));
  if (f.kind == ImageFormat::Kind::kSnorm) return std::round(std::clamp(value, -1.0, 1.0) * ImageScale(f));
  return value;
}

Data MakeImage(const Manifest& m, const ManifestImage& image, std::array<uint32_t, 3> size, const Point& point,
               const DeviceValues& device) {
  const ImageFormat& f = image.format;
  const ElementType t = ImageElement(f);
  const uint64_t texels = uint64_t{size[0]} * size[1] * size[2];
  Data data(texels * f.TexelBytes());
  const uint32_t n = f.channels;
  const ManifestBuffer carrier{.name = image.name, .type = t};
  const ManifestBuffer::MemberInit init{.init = image.init, .value = image.value, .expression = image.init_expression};
  InitTarget target{.n = texels * n,
                    .scalar = [](size_t p) { return p; },
                    .index = [n](size_t p) { return p / n; },
                    .component = [n](size_t p) { return p % n; },
                    .type = t.scalar,
                    .bytes = t.scalar_bytes,
                    .glsl = f.glsl,
                    .what = fmt::format("image '{}'", image.name),
                    .texel = [size, n](size_t p) {
                      const size_t texel = p / n;
                      return std::array<double, 3>{static_cast<double>(texel % size[0]),
                                                   static_cast<double>(texel / size[0] % size[1]),
                                                   static_cast<double>(texel / (size_t{size[0]} * size[1]))};
                    },
                    .stored = [&f](double v) { return ImageStored(f, v); }};
  if (f.kind == ImageFormat::Kind::kUnorm) target.range = std::pair{0.0, 1.0};
  if (f.kind == ImageFormat::Kind::kSnorm) target.range = std::pair{-1.0, 1.0};
  if (image.init == ManifestBuffer::Init::kRandom && f.kind != ImageFormat::Kind::kFloat &&
      f.kind != ImageFormat::Kind::kInt && f.kind != ImageFormat::Kind::kUint) {
    // A normalised channel's whole range, not the integers' 16 bits.
    const uint64_t base = SplitMix64(SeedOf(m.name, image.name));
    for (size_t p = 0; p < target.n; ++p) {
      const double unit = static_cast<double>(SplitMix64(base + p) >> 11) * 0x1.0p-53;
      Set(t, data, p, ImageStored(f, f.kind == ImageFormat::Kind::kSnorm ? 2 * unit - 1 : unit));
    }
    return data;
  }
  Fill(m, carrier, init, target, data, point, device);
  return data;
}

// One resource's contents as a check reads them: a buffer's scalars, or an image's channels
// (normalised as the shader sees them), by scalar index.
struct Reading {
  const Data* data = nullptr;
  ElementType type;
  const ImageFormat* format = nullptr;  // an image's
  std::array<uint32_t, 3> size{};      // an image's width, height, depth
  bool outside_zero = false;
  size_t scalars = 0;
  double At(size_t k) const {
    const double v = Get(type, *data, k);
    return format != nullptr ? ImageValue(*format, v) : v;
  }
};

// The first read a check could not answer (an index outside a buffer, a coordinate that is not
// whole), kept from whichever thread met it first; its reads return NaN, and the evaluation's
// failure reports this instead.
struct BadRead {
  std::mutex mutex;
  std::atomic<bool> seen{false};
  std::string message;
  void Note(std::string text) {
    std::lock_guard lock(mutex);
    if (seen.exchange(true)) return;
    message = std::move(text);
  }
};

// Resolves a check function's call: buffer `r.At(j)`, image texel (x, y[, z][, c]).
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
  const bool three_d = r.size[2] > 1;
  const int coordinates = three_d ? 3 : 2;
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

// Bytes as a string's characters: a key of a map.
std::string BytesText(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Variant `base` at a point's [axes] values: made once per variant object and combination, and
// kept for the process (a case and the reference run at its point refer to it). By the object, not
// its name: a family's copy of a variant (its workgroups placed on the device) and the manifest's
// own are two, and each gets its own.
const ManifestVariant& MadeAt(const Manifest& m, const ManifestVariant& base, const Point& point) {
  if (m.axes.empty()) return base;
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<ManifestVariant>> made;
  const std::vector<Coordinate> values = AxisCoordinates(m, point.axes);
  std::string key = fmt::format("{}", static_cast<const void*>(&base));
  for (const Coordinate& c : values) key += fmt::format("\n{}={}", c.axis, Spelled(c.value));
  std::lock_guard guard(lock);
  std::unique_ptr<ManifestVariant>& at = made[key];
  if (!at) at = std::make_unique<ManifestVariant>(AtAxes(base, values));
  return *at;
}

class GpuCase : public Case {
 public:
  // `as_reference`: made to give the reference's outputs at another variant's point, where it runs at
  // that point's subgroup size whether it lists it or not.
  GpuCase(Suite& suite, const Manifest& m, const ManifestVariant& base, const Point& point, bool as_reference = false)
      : suite_(&suite), context_(suite.context), manifest_(&m), variant_(&MadeAt(m, base, point)), point_(point),
        values_(Evaluated(m, *variant_, point, ValuesAt(suite.context->info(), point))), swapped_(Swapped(*variant_)) {
    const ManifestVariant& v = *variant_;
    const DeviceInfo& info = context_->info();
    const uint32_t subgroup = SubgroupOf(point);
    RequireSupport(subgroup == 0 || as_reference ||
                       std::find(v.subgroup_sizes.begin(), v.subgroup_sizes.end(), subgroup) != v.subgroup_sizes.end(),
                   fmt::format("variant {} does not list subgroup size {} (its subgroup_sizes)", v.name, subgroup));
    for (const std::string& feature : v.requires_features) {
      const bool has = feature == "subgroup_arithmetic"         ? info.subgroup_arithmetic
                       : feature == "subgroup_ballot"           ? info.subgroup_ballot
                       : feature == "subgroup_shuffle_relative" ? info.subgroup_shuffle_relative
                                                                : info.float_atomic_add;
      RequireSupport(has, fmt::format("variant {} requires {}, which the device lacks", v.name, feature));
    }
    for (const std::string& capability : v.capabilities) {
      auto feature = info.capability_features.find(capability);
      RequireSupport(feature == info.capability_features.end() || feature->second,
                     fmt::format("variant {}'s shader declares the SPIR-V capability {}, and the device lacks the "
                                 "feature it needs",
                                 v.name, capability));
    }
    RequireSupport(!v.storage_read_without_format || info.storage_image_read_without_format,
                   fmt::format("variant {} reads a storage image declared without a format, and the device lacks "
                               "shaderStorageImageReadWithoutFormat",
                               v.name));
    RequireSupport(!v.storage_write_without_format || info.storage_image_write_without_format,
                   fmt::format("variant {} writes a storage image declared without a format, and the device lacks "
                               "shaderStorageImageWriteWithoutFormat",
                               v.name));
    for (const ManifestImage& image : m.images) {
      RequireSupport(!image.outside_zero || info.robust_image_access,
                     fmt::format("image '{}' has outside = \"zero\": the shader's reads outside it return zero only "
                                 "with robust image access (Vulkan 1.3 or VK_EXT_image_robustness), which the device "
                                 "lacks",
                                 image.name));
    }
    for (size_t i = 0; i < m.buffers.size(); ++i) RequireStorage(*context_, values_.counts[i] * m.buffers[i].type.Bytes());
    for (const ManifestVariant* pass : PassesOf(v)) {
      RequireSupport(info.api_version >= ApiVersionOf(pass->target),
                     fmt::format("{} is compiled for Vulkan {}, and the device has {}", pass->name,
                                 VulkanTargetName(pass->target), info.ApiVersionString()));
    }
    PlanDispatches();
    inputs_ = SharedInputs();
    MakeKernels(subgroup);
    MakeUniforms();
    MakeWritten();
    MakeSamplers();
    // One descriptor set per kernel, arrangement and uniforms (a ping-pong of a thousand steps binds
    // two), and per copy of the rotated input images.
    const uint32_t copies = inputs_->image_copies;
    for (size_t d = 0; d < dispatches_.size(); ++d) {
      auto& sets = timed_[BindingKey(d)];
      if (!sets.empty()) continue;
      for (uint32_t copy = 0; copy < copies; ++copy) {
        sets.push_back(BindingsFor(d, [&](size_t r) { return TimedRange(r, copy); }));
      }
    }
  }

  // This variant's resources after one run of its sequence on resources of the check's own, each
  // buffer followed by a guard region of its own pattern (inside the bound range under
  // --guard=inside): written ones from the poison or their init, inputs from their values.
  // `failure` says which guard changed, or which input, where one did.
  struct GuardedResult {
    std::vector<Data> outputs;  // per resource (buffers, then images); empty for an input
    Comparison failure{.passed = true};
  };
  GuardedResult GuardedRun() {
    const Manifest& m = *manifest_;
    const GuardPlace place = suite_->options.guard;
    const bool inside = place == GuardPlace::kInside || (place == GuardPlace::kAuto && !variant_->reads_length);
    const size_t buffers_n = m.buffers.size();
    std::vector<std::unique_ptr<Buffer>> buffers;
    std::vector<std::unique_ptr<Image>> images;
    std::vector<BufferRange> ranges;
    std::vector<std::vector<std::byte>> guards;
    for (size_t i = 0; i < buffers_n; ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const uint64_t bytes = Bytes(i);
      // Made on the device, not in a host copy of the whole buffer: an input from its first
      // rotated copy, an output poisoned by a fill (the poison's bytes, as PoisonBytes writes
      // them); the guard after it uploaded. A host vector of a 512 MiB buffer cost a check about a
      // second of page faults and copies on the GPU host.
      buffers.push_back(std::make_unique<Buffer>(*context_, bytes + kGuardBytes));
      Buffer& buffer = *buffers.back();
      if (!written_[i]) {
        context_->Run([&](Commands& c) { c.Copy(inputs_->device[i]->buffer(), 0, buffer, 0, bytes); });
      } else if (!initial_[i].empty()) {
        buffer.Upload(std::span<const std::byte>(initial_[i]).first(bytes));
      } else {
        context_->Run([&](Commands& c) { c.Fill(buffer, kPoison); });
      }
      guards.push_back(GuardPattern(m.name, b.name));
      buffer.Upload(guards.back(), bytes);
    }
    for (size_t k = 0; k < m.images.size(); ++k) {
      const size_t r = buffers_n + k;
      images.push_back(MakeDeviceImage(k));
      if (!written_[r]) {
        images.back()->Upload(inputs_->host[r]);
      } else if (!initial_[r].empty()) {
        images.back()->Upload(initial_[r]);
      } else {
        Data poison(ImageBytes(k));
        PoisonBytes(poison);
        images.back()->Upload(poison);
      }
    }
    auto range = [&](size_t r) -> BufferRange {
      if (r < buffers_n) return {buffers[r].get(), inside ? Bytes(r) + kGuardBytes : Bytes(r)};
      return {.image = images[r - buffers_n].get()};
    };
    std::map<std::string, std::unique_ptr<Bindings>> bindings;
    for (size_t d = 0; d < dispatches_.size(); ++d) {
      auto& set = bindings[BindingKey(d)];
      if (!set) set = BindingsFor(d, range);
    }
    context_->Run([&](Commands& c) {
      for (size_t d = 0; d < dispatches_.size(); ++d) {
        if (d > 0) c.Barrier();
        DispatchOne(c, d, *bindings.at(BindingKey(d)), [](size_t) { return 0u; });
      }
    });
    GuardedResult result;
    result.outputs.resize(buffers_n + m.images.size());
    for (size_t i = 0; i < buffers_n; ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const uint64_t bytes = Bytes(i);
      if (!result.failure.passed) continue;
      std::vector<std::byte> guard(kGuardBytes);
      buffers[i]->Download(guard, bytes);
      if (auto changed = std::mismatch(guard.begin(), guard.end(), guards[i].begin()); changed.first != guard.end()) {
        result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                          .message = fmt::format("wrote past the end of '{}' (first changed byte +{}{})", b.name,
                                                 changed.first - guard.begin(),
                                                 inside ? ", in the guard bound inside its range" : "")};
        continue;
      }
      if (written_[i]) {
        result.outputs[i].resize(bytes);
        buffers[i]->Download(result.outputs[i]);
        continue;
      }
      // An input compared on the device with the copy it was made from; downloaded only where it
      // changed, to name the first changed scalar.
      if (SameBytes(*context_, inputs_->device[i]->buffer(), *buffers[i], bytes)) continue;
      std::vector<std::byte> got(bytes);
      buffers[i]->Download(got);
      if (auto changed = std::mismatch(got.begin(), got.end(), inputs_->host[i].begin()); changed.first != got.end()) {
        const auto byte = static_cast<size_t>(changed.first - got.begin());
        const std::optional<size_t> scalar = ScalarAtByte(b.type, byte);
        result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                          .message = fmt::format("changed input '{}' at {}: the kernel wrote a buffer the manifest "
                                                 "declares an input (give it output = true and an init to update it "
                                                 "in place)",
                                                 b.name,
                                                 scalar ? IndexText(b, *scalar)
                                                        : fmt::format("byte {} (padding of element {})", byte,
                                                                      byte / b.type.Bytes()))};
      }
    }
    for (size_t k = 0; k < m.images.size(); ++k) {
      const size_t r = buffers_n + k;
      Data got(ImageBytes(k));
      images[k]->Download(got);
      if (written_[r]) {
        result.outputs[r] = std::move(got);
      } else if (result.failure.passed && got != inputs_->host[r]) {
        const auto byte = static_cast<size_t>(std::mismatch(got.begin(), got.end(), inputs_->host[r].begin()).first -
                                              got.begin());
        result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                          .message = fmt::format("changed input image '{}' at {}: the kernel wrote an image the "
                                                 "manifest declares an input",
                                                 m.images[k].name, TexelText(k, byte / m.images[k].format.channel_bytes))};
      }
    }
    return result;
  }

  Comparison Check() override {
    try {
      return Checked();
    } catch (const CheckFailure& e) {
      return {.max_relative_error = std::numeric_limits<double>::infinity(), .message = e.message};
    }
  }

  Comparison Checked() {
    GuardedResult run = GuardedRun();
    if (!run.failure.passed) return run.failure;
    const std::vector<Data>& got = run.outputs;
    const Manifest& m = *manifest_;
    const size_t buffers_n = m.buffers.size();
    for (size_t i = 0; i < buffers_n; ++i) {
      const ManifestBuffer& b = m.buffers[i];
      if (!b.output) continue;
      // Every element written, and a finite float: what the reference variant is checked for
      // at least, and a clearer message than a comparison for the others.
      Comparison c = Unwritten(b, got[i], !initial_[i].empty());
      if (!c.passed) return c;
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
        Comparison c = CompareWithCheck(got, i, -1, Scalars(b, got[i]), expression->second, b.name);
        if (!c.passed) return c;
      }
      // A struct's members, each checked by its own expression.
      for (size_t f = 0; f < b.type.fields.size(); ++f) {
        const std::string key = b.name + "." + b.type.fields[f].name;
        auto expression = variant_->check.find(key);
        if (expression == variant_->check.end()) continue;
        Comparison c =
            CompareWithCheck(got, i, static_cast<int>(f), got[i].size() / b.type.Bytes(), expression->second, key);
        if (!c.passed) return c;
      }
    }
    for (size_t k = 0; k < m.images.size(); ++k) {
      const size_t r = buffers_n + k;
      if (!written_[r]) continue;
      auto expression = variant_->check.find(m.images[k].name);
      if (expression == variant_->check.end()) continue;
      const Reading reading = ReadingOf(got, r);
      const std::vector<double> want = Expected(got, r, -1, reading.scalars, expression->second, nullptr);
      Comparison c = CompareImage(k, reading, want, fmt::format("{} = \"{}\"", CheckLabel(m.images[k].name),
                                                                 expression->second));
      if (!c.passed) return c;
    }
    for (const auto& [name, text] : m.require) {
      Comparison c = Required(got, name, text);
      if (!c.passed) return c;
    }
    const ManifestVariant* reference = ReferenceVariant();
    // By name: the family's variants are copies of the manifest's.
    if (reference != nullptr && reference->name == variant_->name) {
      State& state = suite_->Shared<State>(StateKey());
      state.reference = {ReferenceKey(), got, ""};
    } else if (reference != nullptr) {
      const ReferenceOutputs& kept = ReferenceRun(*reference);
      if (!kept.failure.empty()) {
        return {.max_relative_error = std::numeric_limits<double>::infinity(),
                .message = fmt::format("the reference variant {} fails its own check run: {}", reference->name,
                                       kept.failure)};
      }
      const std::vector<Data>& want = kept.outputs;
      for (size_t i = 0; i < buffers_n; ++i) {
        const ManifestBuffer& b = m.buffers[i];
        if (!b.output) continue;
        if (want[i].size() != got[i].size()) {
          return {.max_relative_error = std::numeric_limits<double>::infinity(),
                  .message = fmt::format("output '{}' has {} values, the reference variant's {}", b.name,
                                         Scalars(b, got[i]), Scalars(b, want[i]))};
        }
        Comparison c = CompareScalars(b, got[i], Numbers(want[i], b), variant_->tolerance, variant_->abs_tolerance,
                                      fmt::format("the reference variant {}", reference->name));
        if (!c.passed) return c;
      }
      for (size_t k = 0; k < m.images.size(); ++k) {
        const size_t r = buffers_n + k;
        if (!m.images[k].output) continue;
        const Reading reference_reading = ReadingOf(want, r);
        std::vector<double> values(reference_reading.scalars);
        for (size_t j = 0; j < values.size(); ++j) values[j] = reference_reading.At(j);
        Comparison c = CompareImage(k, ReadingOf(got, r), values, fmt::format("the reference variant {}", reference->name));
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
                    .ops_lower_bound = manifest_->arithmetic_lower_bound,
                    // Each pass after the first waits for the one before it.
                    .dispatches = static_cast<double>(dispatches_.size())};
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
  // One dispatch of the sequence: its pass, values, kernel and push bytes, the arrangement of the
  // resources' slots it runs under, and the uniform buffer of each [[uniform]] its shader declares.
  struct Planned {
    const ManifestVariant* pass = nullptr;
    const PointValues* values = nullptr;
    Kernel* kernel = nullptr;
    std::vector<std::byte> push;
    size_t arrangement = 0;
    std::vector<const Buffer*> uniforms;  // per [[uniform]]; null where the pass does not declare it
  };
  // What sits at a slot the kernel binds: a resource (buffers, then images) or a [[uniform]].
  struct Slot {
    SlotPlace place;
    DescriptorSlot::Kind kind = DescriptorSlot::Kind::kStorageBuffer;
    size_t uniform = 0;  // kUniformBuffer's [[uniform]]
  };

  std::string StateKey() const { return "manifest:" + manifest_->name; }
  std::string ReferenceKey() const {
    std::string key =
        fmt::format("{}/{}/sg{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain), SubgroupOf(point_));
    const ManifestVariant* reference = ReferenceVariant();
    if (manifest_->axes.empty() || reference == nullptr) return key;
    // With [axes], what the reference runs at this point: its SPIR-V and its dispatches' values,
    // whatever the axes are called. A reference that ignores a knob (a naive kernel beside a tiled
    // one) then runs once for all of that knob's values, not at each (a second at every point of a
    // 1422-point search).
    const ManifestVariant& at = MadeAt(*manifest_, *reference, point_);
    std::string what;
    for (const ManifestVariant* pass : PassesOf(at)) {
      // Named first: GCC 14 takes a reference returned from a call on a temporary for a dangling
      // one (the words live in the compile cache).
      const ShaderSource source = SourceOf(*pass, point_.workgroup, true);
      const std::vector<uint32_t>& words = CompileShader(source);
      what.append(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
    }
    const PointValues v = Evaluated(*manifest_, at, point_, ValuesAt(context_->info(), point_));
    auto add = [&](const auto& values) {
      for (const auto& x : values) what += fmt::format("{},", x);
      what += ';';
    };
    for (const PointValues& d : v.passes.empty() ? std::vector<PointValues>{v} : v.passes) {
      add(d.groups);
      add(d.constants);
      for (const PushValue& p : d.push) what += fmt::format("{},", p.bits);
      what += BytesText(d.push_bytes) + ';';
      for (const auto& u : d.uniforms) what += BytesText(u) + ';';
    }
    add(v.counts);
    for (const auto& size : v.image_sizes) add(size);
    return key + "/" + Sha256Hex(what);
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
      GpuCase made(*suite_, *manifest_, reference, point_, true);
      GuardedResult run = made.GuardedRun();
      state.reference = {ReferenceKey(), std::move(run.outputs), run.failure.passed ? "" : run.failure.message};
    }
    return state.reference;
  }

  size_t ResourceCount() const { return manifest_->buffers.size() + manifest_->images.size(); }
  const std::string& ResourceName(size_t r) const {
    const size_t n = manifest_->buffers.size();
    return r < n ? manifest_->buffers[r].name : manifest_->images[r - n].name;
  }
  const std::vector<SlotPlace>& DeclaredSlots(size_t r) const {
    const size_t n = manifest_->buffers.size();
    return r < n ? manifest_->buffers[r].slots : manifest_->images[r - n].slots;
  }
  size_t ResourceNamed(const std::string& name) const {
    for (size_t r = 0; r < ResourceCount(); ++r) {
      if (ResourceName(r) == name) return r;
    }
    return ResourceCount();
  }

  // The sequence's dispatches in order, and the arrangements of slots they run under: each starts
  // from the declared one, and a pass's swaps trade slots after each of its repetitions.
  void PlanDispatches() {
    std::vector<const PointValues*> values;
    if (values_.passes.empty()) {
      values.push_back(&values_);
    } else {
      for (const PointValues& p : values_.passes) values.push_back(&p);
    }
    std::vector<std::vector<SlotPlace>> arrangement;
    for (size_t r = 0; r < ResourceCount(); ++r) arrangement.push_back(DeclaredSlots(r));
    for (const PointValues* p : values) {
      Planned planned;
      planned.pass = variant_->passes.empty() ? variant_ : &variant_->passes[p->pass];
      planned.values = p;
      auto known = std::find(arrangements_.begin(), arrangements_.end(), arrangement);
      planned.arrangement = static_cast<size_t>(known - arrangements_.begin());
      if (known == arrangements_.end()) arrangements_.push_back(arrangement);
      if (p->push_bytes.empty()) {
        for (const PushValue& v : p->push) {
          const auto* bytes = reinterpret_cast<const std::byte*>(&v.bits);
          planned.push.insert(planned.push.end(), bytes, bytes + 4);
        }
      } else {
        planned.push = p->push_bytes;
      }
      dispatches_.push_back(std::move(planned));
      for (const auto& [a, b] : dispatches_.back().pass->swaps) {
        std::swap(arrangement[ResourceNamed(a)], arrangement[ResourceNamed(b)]);
      }
    }
  }

  // The slots `pass`'s shader declares, by (set, binding), with what each takes.
  std::vector<Slot> SlotsOf(const ManifestVariant& pass) const {
    const Manifest& m = *manifest_;
    std::vector<Slot> slots;
    for (const SlotPlace& place : pass.declared) {
      Slot slot{.place = place};
      for (size_t u = 0; u < m.uniforms.size(); ++u) {
        if (m.uniforms[u].set == place.set && m.uniforms[u].binding == place.binding) {
          slot.kind = DescriptorSlot::Kind::kUniformBuffer;
          slot.uniform = u;
        }
      }
      for (const ManifestImage& image : m.images) {
        if (std::find(image.slots.begin(), image.slots.end(), place) != image.slots.end()) {
          slot.kind = image.sampled ? DescriptorSlot::Kind::kCombinedImageSampler : DescriptorSlot::Kind::kStorageImage;
        }
      }
      slots.push_back(slot);
    }
    return slots;
  }

  // A pipeline per pass and specialization (a pass's constants may depend on P), each with
  // descriptor sets enough for every arrangement and copy it is bound under.
  void MakeKernels(uint32_t subgroup) {
    const DeviceInfo& info = context_->info();
    const Point& point = point_;
    auto key_of = [](const Planned& d) {
      std::string key = fmt::format("{}", static_cast<const void*>(d.pass));
      for (uint64_t bits : d.values->constants) key += fmt::format("/{}", bits);
      return key;
    };
    // The descriptor sets each kernel is bound with: one per arrangement and uniform contents, per
    // copy of the input images, and the check run's.
    std::map<std::string, std::set<std::string>> combinations;
    for (const Planned& d : dispatches_) {
      std::string combination = std::to_string(d.arrangement);
      for (const std::vector<std::byte>& block : d.values->uniforms) {
        combination += '/';
        combination += BytesText(block);
      }
      combinations[key_of(d)].insert(combination);
    }
    const uint32_t copies = inputs_->image_copies;
    for (Planned& d : dispatches_) {
      const std::string key = key_of(d);
      if (auto made = kernels_.find(key); made != kernels_.end()) {
        d.kernel = made->second.get();
        continue;
      }
      const ManifestVariant& v = *d.pass;
      const PointValues& values = *d.values;
      // z: the point's where it has one and the shader takes it (a constant or a macro), else the
      // shader's own (a workgroup of two dimensions leaves it).
      const bool z_taken = v.local_size_ids[2].has_value() || v.workgroup_defines.size() >= 3;
      RequireSupport(v.is_pass || point.workgroup.z == 1 || z_taken || point.workgroup.z == v.local_size_z,
                     fmt::format("variant {}'s shader fixes its local size z at {}: workgroup {} cannot run it", v.name,
                                 v.local_size_z, Sized("", point.workgroup)));
      std::array<uint32_t, 3> local{point.workgroup.x, point.workgroup.y,
                                    point.workgroup.z != 1 || z_taken ? point.workgroup.z : v.local_size_z};
      for (size_t i = 0; i < 2; ++i) {
        const uint32_t asked = local[i];
        if (v.is_pass && v.literal_local_size[i] != 0) {
          // A pass of a literal size runs at it.
          local[i] = v.literal_local_size[i];
          continue;
        }
        RequireSupport(v.literal_local_size[i] == 0 || asked == v.literal_local_size[i],
                       fmt::format("variant {}'s shader fixes its local size {} at {}: workgroup {} cannot run it",
                                   v.name, "xy"[i], v.literal_local_size[i], Sized("", point.workgroup)));
      }
      if (v.is_pass && !z_taken) local[2] = v.local_size_z;
      RequireWorkgroup(*context_, {local[0], local[1], local[2]});
      const std::vector<Slot> slots = SlotsOf(v);
      const auto buffers = static_cast<uint32_t>(std::count_if(slots.begin(), slots.end(), [](const Slot& s) {
        return s.kind == DescriptorSlot::Kind::kStorageBuffer;
      }));
      const auto uniforms = static_cast<uint32_t>(std::count_if(slots.begin(), slots.end(), [](const Slot& s) {
        return s.kind == DescriptorSlot::Kind::kUniformBuffer;
      }));
      RequireSupport(buffers <= info.max_dynamic_storage_buffers && buffers <= info.max_storage_buffers_per_stage,
                     fmt::format("{} storage buffers exceed the device's maxDescriptorSetStorageBuffersDynamic ({}) or "
                                 "maxPerStageDescriptorStorageBuffers ({})",
                                 buffers, info.max_dynamic_storage_buffers, info.max_storage_buffers_per_stage));
      RequireSupport(uniforms <= info.max_dynamic_uniform_buffers,
                     fmt::format("{} uniform buffers exceed the device's maxDescriptorSetUniformBuffersDynamic ({})",
                                 uniforms, info.max_dynamic_uniform_buffers));
      KernelSpec spec{.label = v.name,
                      .source = v.source.string(),
                      .defines = v.defines,
                      .local_size = local,
                      .local_size_ids = v.local_size_ids,
                      .bindings = buffers,
                      .push_bytes = static_cast<uint32_t>(d.push.size()),
                      .spirv = &CompileShader(SourceOf(v, point.workgroup, true)),
                      .entry = v.entry};
      // Sizes computed for the device's subgroup size hold only where the pipeline runs with it.
      if (v.uses_subgroup_size && v.require_subgroup_size && info.min_subgroup_size < info.max_subgroup_size) {
        spec.required_subgroup_size = info.subgroup_size;
      }
      // A point of the /sg<N> axis runs at N, required of the pipeline (Kernel checks it against the
      // device's range itself: a driver may accept an impossible one).
      if (subgroup != 0) spec.required_subgroup_size = subgroup;
      spec.full_subgroups = v.full_subgroups;
      for (size_t i = 0; i < v.constants.size(); ++i) {
        spec.specialization.push_back({.id = v.constants[i].id, .size = v.constants[i].bytes, .bits = values.constants[i]});
      }
      for (const Slot& slot : slots) spec.slots.push_back({.set = slot.place.set, .binding = slot.place.binding, .kind = slot.kind});
      // The timed sets (one per dispatch and copy at most) and the check run's.
      spec.max_sets = static_cast<uint32_t>(combinations[key].size()) * (copies + 1);
      kernels_[key] = std::make_unique<Kernel>(*context_, spec);
      kernel_slots_[kernels_[key].get()] = slots;
      d.kernel = kernels_[key].get();
    }
    for (const Planned& d : dispatches_) {
      const uint32_t push_bytes = static_cast<uint32_t>(d.push.size());
      RequireSupport(push_bytes <= info.max_push_constant_bytes,
                     fmt::format("{} bytes of push constants exceed the device's maxPushConstantsSize ({})", push_bytes,
                                 info.max_push_constant_bytes));
      for (size_t i = 0; i < 3; ++i) {
        RequireSupport(d.values->groups[i] <= info.max_workgroup_count[i],
                       fmt::format("{} workgroups in dimension {} exceed the device's maxComputeWorkGroupCount ({})",
                                   d.values->groups[i], "xyz"[i], info.max_workgroup_count[i]));
      }
    }
  }

  // A uniform buffer for each [[uniform]] a dispatch's shader declares, one per distinct contents.
  void MakeUniforms() {
    std::map<std::string, const Buffer*> made;
    for (Planned& d : dispatches_) {
      d.uniforms.assign(manifest_->uniforms.size(), nullptr);
      for (size_t u = 0; u < d.values->uniforms.size(); ++u) {
        const std::vector<std::byte>& block = d.values->uniforms[u];
        if (block.empty()) continue;  // a pass that does not declare it
        auto [at, fresh] = made.emplace(BytesText(block), nullptr);
        if (fresh) {
          uniforms_.push_back(std::make_unique<Buffer>(*context_, block.size(), Memory::kDevice, true));
          uniforms_.back()->Upload(block);
          at->second = uniforms_.back().get();
        }
        d.uniforms[u] = at->second;
      }
    }
  }

  // The bindings of dispatch `d`: for each slot its kernel binds, the resource the dispatch's
  // arrangement puts there (its range from `range`), a uniform buffer, and a sampled slot's sampler.
  std::unique_ptr<Bindings> BindingsFor(size_t d, const std::function<BufferRange(size_t)>& range) const {
    const Planned& planned = dispatches_[d];
    const std::vector<std::vector<SlotPlace>>& arrangement = arrangements_[planned.arrangement];
    std::vector<BufferRange> ranges;
    for (const Slot& slot : kernel_slots_.at(planned.kernel)) {
      if (slot.kind == DescriptorSlot::Kind::kUniformBuffer) {
        ranges.push_back({planned.uniforms[slot.uniform], 0});
        continue;
      }
      size_t r = 0;
      while (r < arrangement.size() &&
             std::find(arrangement[r].begin(), arrangement[r].end(), slot.place) == arrangement[r].end()) {
        ++r;
      }
      BufferRange bound = range(r);
      if (slot.kind == DescriptorSlot::Kind::kCombinedImageSampler) bound.sampler = samplers_.at(slot.place).get();
      ranges.push_back(bound);
    }
    return std::make_unique<Bindings>(planned.kernel->Bind(ranges));
  }

  // What dispatch `d`'s descriptor sets depend on: its kernel, its arrangement and its uniform buffers.
  std::string BindingKey(size_t d) const {
    const Planned& planned = dispatches_[d];
    std::string key = fmt::format("{}/{}", static_cast<const void*>(planned.kernel), planned.arrangement);
    for (const Buffer* u : planned.uniforms) key += fmt::format("/{}", static_cast<const void*>(u));
    return key;
  }

  // Dispatch `d` with `bindings`; `offset(r)` the dynamic offset of resource r's slice.
  void DispatchOne(Commands& c, size_t d, const Bindings& bindings, const std::function<uint32_t(size_t)>& offset) const {
    const Planned& planned = dispatches_[d];
    const std::vector<std::vector<SlotPlace>>& arrangement = arrangements_[planned.arrangement];
    std::vector<uint32_t> offsets;
    for (const Slot& slot : kernel_slots_.at(planned.kernel)) {
      if (slot.kind == DescriptorSlot::Kind::kUniformBuffer) {
        offsets.push_back(0);
      } else if (slot.kind == DescriptorSlot::Kind::kStorageBuffer) {
        size_t r = 0;
        while (r < arrangement.size() &&
               std::find(arrangement[r].begin(), arrangement[r].end(), slot.place) == arrangement[r].end()) {
          ++r;
        }
        offsets.push_back(offset(r));
      }
    }
    const auto& groups = planned.values->groups;
    c.Dispatch(*planned.kernel, bindings,
               {static_cast<uint32_t>(groups[0]), static_cast<uint32_t>(groups[1]), static_cast<uint32_t>(groups[2])},
               offsets, std::span<const std::byte>(planned.push));
  }

  void Record(Commands& c, uint32_t copy) const {
    const size_t buffers_n = manifest_->buffers.size();
    const uint32_t image_copy = copy % inputs_->image_copies;
    for (size_t d = 0; d < dispatches_.size(); ++d) {
      if (d > 0) c.Barrier();
      DispatchOne(c, d, *timed_.at(BindingKey(d))[image_copy], [&](size_t r) {
        return r < buffers_n && !written_[r] ? inputs_->device[r]->Offset(copy) : 0u;
      });
    }
  }

  // Resource r's range in the timed loop, with input images at copy `copy`.
  BufferRange TimedRange(size_t r, uint32_t copy) const {
    const size_t buffers_n = manifest_->buffers.size();
    if (r < buffers_n) {
      return written_[r] ? BufferRange{outputs_[r].get(), 0} : BufferRange{&inputs_->device[r]->buffer(), Bytes(r)};
    }
    const size_t k = r - buffers_n;
    return {.image = written_[r] ? images_[k].get() : inputs_->images[k][copy].get()};
  }

  uint64_t Bytes(size_t buffer) const { return values_.counts[buffer] * manifest_->buffers[buffer].type.Bytes(); }
  uint64_t ImageBytes(size_t k) const {
    const auto& s = values_.image_sizes[k];
    return uint64_t{s[0]} * s[1] * s[2] * manifest_->images[k].format.TexelBytes();
  }

  // A device image for image k at this point, with the usages its format allows (a swap may move it
  // to a slot of the other kind); unsupported where a slot it may take needs one the format lacks.
  std::unique_ptr<Image> MakeDeviceImage(size_t k) const {
    const ManifestImage& image = manifest_->images[k];
    const FormatSupport support = SupportOf(*context_, static_cast<vk::Format>(image.format.vk_format));
    bool storage = !image.sampled, sampled = image.sampled, linear = image.sampled && image.linear;
    for (const ManifestVariant* pass : PassesOf(*variant_)) {
      for (const auto& [a, b] : pass->swaps) {
        const std::string& other = a == image.name ? b : b == image.name ? a : image.name;
        for (const ManifestImage& o : manifest_->images) {
          if (o.name != other) continue;
          storage = storage || !o.sampled;
          sampled = sampled || o.sampled;
          linear = linear || (o.sampled && o.linear);
        }
      }
    }
    RequireSupport(!storage || support.storage,
                   fmt::format("image '{}': the device cannot use {} as a storage image", image.name, image.format.glsl));
    RequireSupport(!sampled || support.sampled,
                   fmt::format("image '{}': the device cannot sample {}", image.name, image.format.glsl));
    RequireSupport(!linear || support.linear_filter,
                   fmt::format("image '{}': the device cannot filter {} linearly", image.name, image.format.glsl));
    const auto& s = values_.image_sizes[k];
    return std::make_unique<Image>(*context_, static_cast<vk::Format>(image.format.vk_format), image.format.TexelBytes(),
                                   s, image.three_d, support.storage, support.sampled);
  }

  // The samplers of the sampled slots: each described by the image declared at that slot.
  void MakeSamplers() {
    for (const ManifestImage& image : manifest_->images) {
      if (!image.sampled) continue;
      const SamplerSpec spec{
          .linear = image.linear,
          .address = image.address == "clamp_to_border" ? vk::SamplerAddressMode::eClampToBorder
                     : image.address == "repeat"        ? vk::SamplerAddressMode::eRepeat
                     : image.address == "mirrored_repeat" ? vk::SamplerAddressMode::eMirroredRepeat
                                                          : vk::SamplerAddressMode::eClampToEdge,
          .border = BorderFor(image.border, image.format.Integer()),
          .unnormalized = image.unnormalized};
      for (const SlotPlace& slot : image.slots) samplers_[slot] = std::make_unique<Sampler>(*context_, spec);
    }
  }

  // The resources the sequence writes (outputs, and those a pass swaps): their device copies, the
  // contents they start from where they have an init (a swapped one always: random by default), and
  // the copies restore puts back.
  void MakeWritten() {
    const Manifest& m = *manifest_;
    const size_t buffers_n = m.buffers.size();
    const DeviceValues device = ValuesAt(context_->info(), point_);
    outputs_.resize(buffers_n);
    restore_.resize(buffers_n);
    images_.resize(m.images.size());
    for (size_t i = 0; i < buffers_n; ++i) {
      const ManifestBuffer& b = m.buffers[i];
      if (!written_[i]) continue;
      outputs_[i] = std::make_unique<Buffer>(*context_, Bytes(i));
      if (b.init_given || swapped_.contains(b.name)) {
        // The timed dispatches start from the same contents as the check run.
        initial_[i] = MakeInput(m, b, values_.counts[i], point_, device);
        outputs_[i]->Upload(std::as_bytes(std::span(initial_[i])));
      }
      if (b.restore) {
        restore_[i] = std::make_unique<Buffer>(*context_, Bytes(i));
        restore_[i]->Upload(std::as_bytes(std::span(initial_[i])));
      }
    }
    for (size_t k = 0; k < m.images.size(); ++k) {
      const ManifestImage& image = m.images[k];
      const size_t r = buffers_n + k;
      if (!written_[r]) continue;
      images_[k] = MakeDeviceImage(k);
      if (image.init_given || swapped_.contains(image.name)) {
        initial_[r] = MakeImage(m, image, values_.image_sizes[k], point_, device);
        images_[k]->Upload(initial_[r]);
      }
    }
  }

  // The inputs of this point's sizes: the kept ones, or made now (and kept in their place).
  std::shared_ptr<Inputs> SharedInputs() {
    const Manifest& m = *manifest_;
    const size_t buffers_n = m.buffers.size();
    std::string key = suite_->options.cache == CacheMode::kCold ? "cold" : "warm";
    for (size_t r = 0; r < ResourceCount(); ++r) {
      key += written_[r] ? "/w" : "/r";
      if (r < buffers_n) {
        if (!written_[r]) key += fmt::format("{}", values_.counts[r]);
      } else {
        const auto& s = values_.image_sizes[r - buffers_n];
        key += fmt::format("{}x{}x{}", s[0], s[1], s[2]);
      }
      // An init expression may read the point's sizes: its inputs are the point's own.
      const bool expression = r < buffers_n ? m.buffers[r].init == ManifestBuffer::Init::kExpression
                                            : m.images[r - buffers_n].init == ManifestBuffer::Init::kExpression;
      if (expression) {
        key += fmt::format("/{}/{}/sg{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain),
                           SubgroupOf(point_));
      }
    }
    State& state = suite_->Shared<State>(StateKey());
    if (state.inputs && state.inputs->key == key) return state.inputs;
    state.inputs.reset();  // before the new copies are made: both may not fit
    auto made = std::make_shared<Inputs>();
    made->key = key;
    made->host.resize(ResourceCount());
    made->device.resize(buffers_n);
    made->images.resize(m.images.size());
    // One count of copies for every input, from their bytes together, so that a batch's period
    // cycles through all of them; input images, each copy a descriptor set of its own, at most
    // kMaxImageCopies.
    uint64_t stride = 0;
    bool input_images = false;
    for (size_t r = 0; r < ResourceCount(); ++r) {
      if (written_[r]) continue;
      if (r < buffers_n) {
        stride += RotatingInput::Stride(*context_, values_.counts[r] * m.buffers[r].type.Bytes());
      } else {
        stride += ImageBytes(r - buffers_n);
        input_images = true;
      }
    }
    made->copies = ColdCopies(*context_, stride, suite_->options.cache);
    if (input_images) made->copies = std::min(made->copies, kMaxImageCopies);
    made->image_copies = input_images ? made->copies : 1;
    const DeviceValues device = ValuesAt(context_->info(), point_);
    for (size_t r = 0; r < ResourceCount(); ++r) {
      if (written_[r]) continue;
      if (r < buffers_n) {
        made->host[r] = MakeInput(m, m.buffers[r], values_.counts[r], point_, device);
        made->device[r] = std::make_unique<RotatingInput>(*context_, std::as_bytes(std::span(made->host[r])),
                                                          suite_->options.cache, made->copies);
        continue;
      }
      const size_t k = r - buffers_n;
      made->host[r] = MakeImage(m, m.images[k], values_.image_sizes[k], point_, device);
      for (uint32_t copy = 0; copy < made->image_copies; ++copy) {
        made->images[k].push_back(MakeDeviceImage(k));
        made->images[k].back()->Upload(made->host[r]);
      }
    }
    state.inputs = made;
    return made;
  }

  // A check's view of resource r: written ones as `got` holds them, inputs as made.
  Reading ReadingOf(const std::vector<Data>& got, size_t r) const {
    return ReadingOfData(written_[r] ? got[r] : inputs_->host[r], r);
  }
  Reading ReadingOfData(const Data& data, size_t r) const {
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
      reading.scalars = reading.data->size() / image.format.channel_bytes;
    }
    return reading;
  }

  // A check input's contents as the check reads them by name: an input's, or an output's initial ones.
  Reading InputReading(const CheckInput& in) const {
    const size_t r = in.image ? manifest_->buffers.size() + in.buffer : in.buffer;
    return ReadingOfData(written_[r] ? initial_[r] : inputs_->host[r], r);
  }

  // The values of `text` at the scalars of resource `out` (buffers, then images): where `field` is -1
  // at each of its `count` scalars (i the scalar's index, c its component, x, y and z an image's
  // texel), the inputs read at the same index; else at each component of member `field` of its
  // `count` elements (i the element, c the component), its scalars' indices into `scalars`. A
  // struct's member, and any input in a member's check, is read at the same element and component (a
  // scalar at its element whatever the component; NaN where it has no such component). Every
  // resource is also a function of its index or texel, `stat` variables its sums and extremes.
  // Why a check's expression has no value at some index (a read outside a buffer, a value not
  // finite): the benchmark fails with it.
  struct CheckFailure {
    std::string message;
  };

  // How a check is named in messages: "[check] out", the variant's own "[[variant]] 'v'.check.out".
  std::string CheckLabel(const std::string& key) const {
    const auto& family = manifest_->check;
    const auto own = variant_->check.find(key);
    if (own != variant_->check.end() && !(family.contains(key) && family.at(key) == own->second)) {
      return fmt::format("[[variant]] '{}'.check.{}", variant_->name, key);
    }
    return fmt::format("[check] {}", key);
  }

  // The index `k` of resource r's scalars (as Expected counts them: a member's p), for messages.
  std::string PointText(size_t r, int field, size_t k) const {
    const Manifest& m = *manifest_;
    if (r >= m.buffers.size()) return TexelText(r - m.buffers.size(), k);
    if (field < 0) return IndexText(m.buffers[r], k);
    const uint32_t per = m.buffers[r].type.fields[static_cast<size_t>(field)].components;
    return per == 1 ? fmt::format("element {}", k) : fmt::format("element {} component {}", k / per, k % per);
  }

  std::vector<double> Expected(const std::vector<Data>& got, size_t out_index, int field, size_t count,
                               const std::string& text, std::vector<size_t>* scalars,
                               const std::string& label = "") const {
    std::vector<double> want;
    EvaluateCheck(got, out_index, field, count, text, scalars, label,
                  [&](Expression& expression, size_t n, const Expression::Fill& fill) {
                    want.resize(n);
                    expression.EvaluateEach(n, fill, want.data());
                  });
    return want;
  }

  // Buffer i's scalars (where `field` is -1) or member `field`'s (of `count` elements) against the
  // check expression `text` (under key `key`), as CompareScalars compares them: each chunk of values
  // compared as soon as it is evaluated, on the thread that evaluated it.
  Comparison CompareWithCheck(const std::vector<Data>& got, size_t i, int field, size_t count, const std::string& text,
                              const std::string& key) const {
    const ManifestBuffer& b = manifest_->buffers[i];
    std::vector<size_t> scalars;
    std::vector<size_t>* only = field < 0 ? nullptr : &scalars;
    std::mutex lock;
    WorstScalar worst;
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

  // Expected's values, handed chunk by chunk to `consume` on the threads that evaluate them.
  void ExpectedChunks(const std::vector<Data>& got, size_t out_index, int field, size_t count,
                      const std::string& text, std::vector<size_t>* scalars,
                      const Expression::Consume& consume) const {
    EvaluateCheck(got, out_index, field, count, text, scalars, "",
                  [&](Expression& expression, size_t n, const Expression::Fill& fill) {
                    expression.EvaluateChunks(n, fill, consume);
                  });
  }

  // Expected's work, but for how the values are taken: `evaluate(expression, n, fill)`.
  using Evaluation = std::function<void(Expression&, size_t, const Expression::Fill&)>;
  void EvaluateCheck(const std::vector<Data>& got, size_t out_index, int field, size_t count, const std::string& text,
                     std::vector<size_t>* scalars, const std::string& label, const Evaluation& evaluate) const {
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
    const size_t n = field < 0 ? count : count * per;
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
      plain_input[v] = inputs[v].field < 0 && field < 0 && readings[v].format == nullptr &&
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
        const size_t at = start + k;
        const size_t element = at / components, component = at % components;
        if (variable < 4) {
          values[k] = variable == 0   ? static_cast<double>(field < 0 && !image_out ? at : element)
                      : variable == 1 ? width
                      : variable == 2 ? height
                                      : static_cast<double>(component);
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
      const std::string at = e.point < n ? fmt::format(" at {}", PointText(out_index, field, e.point)) : "";
      throw CheckFailure{fmt::format("{} = \"{}\"{}: {}", label.empty() ? CheckLabel(out_name) : label, text, at,
                                     bad.seen ? bad.message : e.message)};
    }
  }

  // The sum (in double), least or greatest of `reading`'s scalars.
  static double Stat(const Reading& reading, int kind) {
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

  // [require] name = text: non-zero at each scalar of the resource as the sequence left it.
  Comparison Required(const std::vector<Data>& got, const std::string& name, const std::string& text) const {
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

  // "texel (x, y) channel c" of image k's scalar `k_scalar`.
  std::string TexelText(size_t k, size_t scalar) const {
    const auto& s = values_.image_sizes[k];
    const uint32_t channels = manifest_->images[k].format.channels;
    const size_t texel = scalar / channels;
    const std::string at = s[2] > 1 ? fmt::format("({}, {}, {})", texel % s[0], texel / s[0] % s[1], texel / (size_t{s[0]} * s[1]))
                                    : fmt::format("({}, {})", texel % s[0], texel / s[0]);
    return channels == 1 ? fmt::format("texel {}", at) : fmt::format("texel {} channel {}", at, scalar % channels);
  }

  // The first channel of image k's output still holding the poison (a float one, or one not finite).
  Comparison UnwrittenImage(size_t k, const Data& got) const {
    const ManifestImage& image = manifest_->images[k];
    const ElementType t = ImageElement(image.format);
    const bool poisoned = !image.init_given && !swapped_.contains(image.name);
    const size_t channels = got.size() / image.format.channel_bytes;
    const size_t j = FirstWhere(channels, [&](size_t at) {
      return (poisoned && StillPoison(t, got, at)) || !std::isfinite(Get(t, got, at));
    });
    if (j == channels) return {.passed = true};
    const bool poison = poisoned && StillPoison(t, got, j);
    const double g = Get(t, got, j);
    return {.max_relative_error = std::numeric_limits<double>::infinity(),
            .worst_index = j,
            .message = poison ? fmt::format("output image '{}' {}: unwritten (still the poison 0x{:08x})", image.name,
                                            TexelText(k, j), kPoison)
                              : fmt::format("output image '{}' {}: got {}, not a finite number", image.name,
                                            TexelText(k, j), g)};
  }

  // Image k's channels against `want` (normalised values): floats within the tolerances, integer
  // formats exactly.
  Comparison CompareImage(size_t k, const Reading& got, const std::vector<double>& want, const std::string& against) const {
    const ManifestImage& image = manifest_->images[k];
    const bool exact = image.format.Integer();
    Comparison c;
    const Worst worst = WorstOf(std::min(want.size(), got.scalars), [&](size_t j) {
      const double g = got.At(j);
      if (exact) return g == want[j] ? 0.0 : std::numeric_limits<double>::infinity();
      if (!std::isfinite(g)) return std::numeric_limits<double>::infinity();
      if (std::abs(g - want[j]) <= variant_->abs_tolerance) return 0.0;
      return std::abs(g - want[j]) / std::max(std::abs(want[j]), 1e-6);
    });
    c.max_relative_error = worst.error;
    c.worst_index = worst.index;
    c.passed = exact ? c.max_relative_error == 0 : c.max_relative_error <= variant_->tolerance;
    if (!c.passed) {
      const size_t j = c.worst_index;
      c.message = exact ? fmt::format("output image '{}' {}: got {}, want {} ({})", image.name, TexelText(k, j), got.At(j),
                                      want[j], against)
                        : fmt::format("output image '{}' {}: got {}, want {} ({}): relative error {:.3g}, tolerance "
                                      "{:.1g}{}",
                                      image.name, TexelText(k, j), got.At(j), want[j], against, c.max_relative_error,
                                      variant_->tolerance,
                                      image.format.kind == ImageFormat::Kind::kFloat
                                          ? ""
                                          : fmt::format(" (a {} channel is stored in steps of 1/{}: give abs_tolerance)",
                                                        image.format.glsl, ImageScale(image.format)));
    }
    return c;
  }

  static std::vector<double> Numbers(const Data& data, const ManifestBuffer& b) {
    std::vector<double> numbers(Scalars(b, data));
    ParallelFor(numbers.size(), kScanGrain, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) numbers[i] = Get(b.type, data, i);
    });
    return numbers;
  }

  Suite* suite_;
  Context* context_;
  const Manifest* manifest_;
  const ManifestVariant* variant_;
  Point point_;
  PointValues values_;
  std::set<std::string> swapped_;
  // Per resource (buffers, then images): written by the sequence (an output, or swapped).
  std::vector<bool> written_ = [this] {
    std::vector<bool> written;
    for (const ManifestBuffer& b : manifest_->buffers) written.push_back(b.output || swapped_.contains(b.name));
    for (const ManifestImage& i : manifest_->images) written.push_back(i.output || swapped_.contains(i.name));
    return written;
  }();
  std::vector<Planned> dispatches_;
  std::vector<std::vector<std::vector<SlotPlace>>> arrangements_;  // per arrangement, per resource its slots
  std::map<std::string, std::unique_ptr<Kernel>> kernels_;
  std::map<const Kernel*, std::vector<Slot>> kernel_slots_;
  std::vector<std::unique_ptr<Buffer>> uniforms_;
  std::map<SlotPlace, std::unique_ptr<Sampler>> samplers_;
  std::shared_ptr<Inputs> inputs_;
  std::vector<std::unique_ptr<Buffer>> outputs_;  // per buffer written
  std::vector<std::unique_ptr<Image>> images_;    // per image written
  std::vector<Data> initial_ = std::vector<Data>(manifest_->buffers.size() + manifest_->images.size());
  std::vector<std::unique_ptr<Buffer>> restore_;  // per output restored before each timed dispatch
  // By BindingKey: per copy of the input images.
  std::map<std::string, std::vector<std::unique_ptr<Bindings>>> timed_;
};

}  // namespace

std::deque<Loaded>& Loaded::All() {
  static std::deque<Loaded> loaded;
  return loaded;
}

namespace {
std::vector<Axis> SubgroupAxisOf(const Manifest& m) {
  const std::vector<uint32_t> sizes = SubgroupAxis(m);
  if (sizes.empty()) return {};
  Axis axis{.name = "subgroup_size", .prefix = "sg"};
  for (uint32_t size : sizes) axis.values.emplace_back(size);
  return {axis};
}

// The subgroup axis, then [axes] in declaration order: /sg<N>/<axis><value>...
std::vector<Axis> AxesOf(const Manifest& m) {
  std::vector<Axis> axes = SubgroupAxisOf(m);
  for (const ManifestAxis& axis : m.axes) axes.push_back({.name = axis.name, .prefix = axis.name, .values = axis.values});
  return axes;
}

// The expressions' device values at point `p`: its subgroup size where it has one.
DeviceValues DeviceAt(const Loaded& loaded, const Point& p) {
  DeviceValues device = loaded.device;
  if (const uint32_t size = SubgroupOf(p); size != 0) device.subgroup_size = size;
  return device;
}
}  // namespace

const ManifestVariant& VariantAt(const Manifest& m, const ManifestVariant& base, const Point& p) {
  return MadeAt(m, base, p);
}

void OverrideAxes(std::deque<Loaded>& all, const std::vector<AxisOverride>& overrides) {
  for (const AxisOverride& given : overrides) {
    bool found = false;
    std::string known;
    for (Loaded& loaded : all) {
      for (ManifestAxis& axis : loaded.manifest.axes) known += (known.empty() ? "" : ", ") + axis.name;
      for (ManifestAxis& axis : loaded.manifest.axes) {
        if (axis.name != given.name) continue;
        found = true;
        std::vector<AxisValue> values;
        for (const std::string& text : given.values) {
          if (!axis.numeric) {
            values.emplace_back(text);
            continue;
          }
          char* end = nullptr;
          const double x = std::strtod(text.c_str(), &end);
          if (end != text.c_str() + text.size() || !std::isfinite(x)) {
            throw UsageError{fmt::format("--axis={}: '{}' is not a number, and {}'s axis {} takes numbers",
                                         given.name, text, loaded.manifest.path.string(), axis.name)};
          }
          values.emplace_back(x);
        }
        axis.values = values;
        loaded.family.axes = AxesOf(loaded.manifest);
      }
    }
    if (!found) {
      throw UsageError{fmt::format("--axis={}: no manifest of this run has an axis {} ({})", given.name, given.name,
                                   known.empty() ? "their [axes] declare none" : "their [axes]: " + known)};
    }
  }
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
      // Every subgroup size a variant lists, after the domain: /sg<N>; then [axes].
      .axes = AxesOf(m),
      .make = [&m](Suite& suite, const ManifestVariant& v, const Point& p) -> std::unique_ptr<Case> {
        return std::make_unique<GpuCase>(suite, m, v, p);
      }};
  loaded.evaluations = std::make_shared<PointEvaluations>(m);
  if (!m.restrict.empty()) {
    loaded.family.point_at = [&loaded](const Point& p) {
      const Manifest& m = loaded.manifest;
      const ManifestVariant& v = MadeAt(m, loaded.family.variants[p.variant], p);
      return loaded.evaluations->Allowed(v, p.workgroup, p.domain, DeviceAt(loaded, p));
    };
  }
  return loaded;
}

void PlaceOnDevice(Loaded& loaded, const DeviceInfo& info) {
  loaded.device = ValuesOf(info);
  if (loaded.manifest.workgroup_expressions.empty()) return;
  const std::vector<Extent> workgroups = WorkgroupsOn(loaded.manifest, static_cast<double>(info.subgroup_size));
  for (ManifestVariant& v : loaded.family.variants) {
    if (v.workgroups_from_family) v.workgroups = workgroups;
  }
}

namespace {
// Each registered point of a manifest by its benchmark's name, for ShaderHash.
std::map<std::string, std::pair<const Loaded*, Point>>& RegisteredPoints() {
  static std::map<std::string, std::pair<const Loaded*, Point>> points;
  return points;
}
}  // namespace

std::string ShaderHash(const std::string& name) {
  auto found = RegisteredPoints().find(name);
  if (found == RegisteredPoints().end()) return "";
  const auto& [loaded, p] = found->second;
  const ManifestVariant& v = MadeAt(loaded->manifest, loaded->family.variants[p.variant], p);
  std::string bytes;
  for (const ManifestVariant* pass : PassesOf(v)) {
    const ShaderSource source = SourceOf(*pass, p.workgroup, true);  // named: see ReferenceKey
    const std::vector<uint32_t>& words = CompileShader(source);
    bytes.append(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
  }
  return Sha256Hex(bytes);
}

void Register(Suite& suite, const Loaded& loaded) {
  // Every point's expressions under the run's --domain and --workgroup overrides: a value that
  // is no use there is the manifest's error, reported before anything runs.
  for (const Point& p : GpuPoints(loaded.family, suite.options.domains, suite.options.workgroups, nullptr)) {
    DeviceValues device = suite.context != nullptr ? ValuesOf(suite.context->info()) : DeviceValues{};
    if (const uint32_t size = SubgroupOf(p); size != 0) device.subgroup_size = size;
    const Manifest& m = loaded.manifest;
    loaded.evaluations->At(MadeAt(m, loaded.family.variants[p.variant], p), p.workgroup, p.domain, device);
    RegisteredPoints().insert_or_assign(p.name, std::pair{&loaded, p});
    // The reference variant runs at every point of the others, to compare with them there.
    for (const ManifestVariant& v : m.variants) {
      if (v.reference && v.name != loaded.family.variants[p.variant].name) {
        loaded.evaluations->At(MadeAt(m, v, p), p.workgroup, p.domain, device);
      }
    }
  }
  RegisterFamily(suite, loaded.family);
}

}  // namespace csbench::manifest
