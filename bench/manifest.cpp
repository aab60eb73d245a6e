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

#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <optional>

#include "harness/base/error.hpp"
#include "harness/base/half.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
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
  std::vector<Data> host;  // per buffer; empty for an output
  std::vector<std::unique_ptr<RotatingInput>> device;
  uint32_t copies = 1;
};

// The reference variant's outputs at one point, which every other variant of the point is
// compared with; those of one point are kept at a time.
struct ReferenceOutputs {
  std::string key;
  std::vector<Data> outputs;  // per buffer; empty for an input
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
  std::memcpy(&bits, at, lane.bytes);  // little-endian hosts
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
};

// Fills `target`'s scalars of `data` by `init`.
void Fill(const Manifest& m, const ManifestBuffer& b, const ManifestBuffer::MemberInit& init, const InitTarget& target,
          Data& data, const Point& point, const DeviceValues& device) {
  const ElementType& t = b.type;
  const bool is_float = target.type == Scalar::kFloat;
  const uint64_t base = SplitMix64(SeedOf(m.name, b.name));
  switch (init.init) {
    case ManifestBuffer::Init::kZero:
      break;
    case ManifestBuffer::Init::kRandom:
      for (size_t p = 0; p < target.n; ++p) {
        const size_t k = target.scalar(p);
        const uint64_t draw = SplitMix64(base + k);
        // Floats uniform in [0, 1); integers 16 bits of the draw (8 for an 8-bit type), so that
        // sums of many stay exact in a double.
        Set(t, data, k,
            is_float ? static_cast<double>(draw >> 40) * 0x1.0p-24
                     : static_cast<double>(draw >> (target.bytes == 1 ? 57 : 48)));
      }
      break;
    case ManifestBuffer::Init::kIota:
      for (size_t p = 0; p < target.n; ++p) {
        // An integer type wraps around at its width, as the shader's own arithmetic would.
        const uint64_t mask = target.bytes == 8 ? ~0ull : (1ull << (8 * target.bytes)) - 1;
        const size_t i = target.index(p);
        Set(t, data, target.scalar(p), is_float ? static_cast<double>(i) : static_cast<double>(i & mask));
      }
      break;
    case ManifestBuffer::Init::kValue:
      for (size_t p = 0; p < target.n; ++p) Set(t, data, target.scalar(p), init.value);
      break;
    case ManifestBuffer::Init::kExpression: {
      Expression expression(InitExpressionText(init.expression), InitVariables());
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
                                          : fixed[variable - 1];
              }
            },
            values.data());
      } catch (const ExpressionError& e) {
        throw Error(fmt::format("{}: init \"{}\": {}", target.what, init.expression, e.message));
      }
      for (size_t p = 0; p < target.n; ++p) {
        const double v = values[p];
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
    FillUniform({reinterpret_cast<float*>(data.data()), scalars}, SeedOf(m.name, b.name));
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

// Fails at the first scalar of output `got` that no invocation wrote (still poisoned, where the
// output started from the poison) or that is not a finite float.
Comparison Unwritten(const ManifestBuffer& b, const Data& got) {
  for (size_t i = 0; i < Scalars(b, got); ++i) {
    const double g = Get(b.type, got, i);
    const bool poison = !b.init_given && StillPoison(b.type, got, i);
    if (poison || !std::isfinite(g)) {
      // A NaN computed from the poison keeps its bits on some devices and becomes the canonical
      // NaN on others (NVIDIA's): either way the output may have been accumulated into.
      const std::string message =
          poison ? fmt::format("output '{}' {}: unwritten, or NaN carried from the poison (0x{:08x}): an output the "
                               "kernel accumulates into needs `init`",
                               b.name, IndexText(b, i), kPoison)
          : std::isnan(g) && !b.init_given
              ? fmt::format("output '{}' {}: got NaN, computed or carried from the poison (a NaN): an output the "
                            "kernel accumulates into needs `init`",
                            b.name, IndexText(b, i))
              : fmt::format("output '{}' {}: got {}, not a finite number", b.name, IndexText(b, i), g);
      return {.max_relative_error = std::numeric_limits<double>::infinity(), .worst_index = i, .message = message};
    }
  }
  return {.passed = true};
}

// The worst scalar of `got` against `want` (one buffer): floats by relative error (floor 1e-6,
// as the built-in families' Compare) or within `abs_tolerance`, integers exactly.
// `only`: the scalars want[j] is for (a struct member's); null: want[j] is scalar j's.
Comparison CompareScalars(const ManifestBuffer& b, const Data& got, const std::vector<double>& want, double tolerance,
                          double abs_tolerance, const std::string& against, const std::vector<size_t>* only = nullptr) {
  Comparison c;
  auto at = [&](size_t i) { return IndexText(b, i); };
  auto scalar = [&](size_t j) { return only != nullptr ? (*only)[j] : j; };
  bool exact = true;
  size_t worst_j = 0;
  for (size_t j = 0; j < want.size(); ++j) {
    const size_t i = scalar(j);
    const double g = Get(b.type, got, i);
    const bool is_float = LaneOf(b.type, i).scalar == Scalar::kFloat;
    if (is_float) exact = false;
    double error = 0;
    if (is_float) {
      error = std::isfinite(g) ? std::abs(g - want[j]) / std::max(std::abs(want[j]), 1e-6)
                               : std::numeric_limits<double>::infinity();
      // Within the absolute bound: as good as exact.
      if (std::isfinite(g) && std::abs(g - want[j]) <= abs_tolerance) error = 0;
      if (std::isnan(want[j]) && std::isnan(g)) error = 0;
    } else {
      error = g == want[j] ? 0 : std::numeric_limits<double>::infinity();
    }
    if (!(error <= c.max_relative_error)) {
      c.max_relative_error = error;
      c.worst_index = i;
      worst_j = j;
    }
  }
  // Integers compare exactly (an integer's error is 0 or infinite), floats within the tolerance.
  c.passed = exact ? c.max_relative_error == 0 : c.max_relative_error <= tolerance;
  if (!c.passed) {
    const size_t i = c.worst_index;
    const bool is_float = LaneOf(b.type, i).scalar == Scalar::kFloat;
    c.message = !is_float ? fmt::format("output '{}' {}: got {}, want {} ({})", b.name, at(i), Get(b.type, got, i),
                                        want[worst_j], against)
                          : fmt::format("output '{}' {}: got {}, want {} ({}): relative error {:.3g}, tolerance {:.1g}",
                                        b.name, at(i), Get(b.type, got, i), want[worst_j], against,
                                        c.max_relative_error, tolerance);
  }
  return c;
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

class GpuCase : public Case {
 public:
  // `as_reference`: made to give the reference's outputs at another variant's point, where it runs at
  // that point's subgroup size whether it lists it or not.
  GpuCase(Suite& suite, const Manifest& m, const ManifestVariant& v, const Point& point, bool as_reference = false)
      : suite_(&suite), context_(suite.context), manifest_(&m), variant_(&v), point_(point),
        values_(Evaluated(m, v, point, ValuesAt(suite.context->info(), point))) {
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
    // z: the point's where it has one and the shader takes it (a constant or a macro), else the
    // shader's own (a workgroup of two dimensions leaves it).
    const bool z_taken = v.local_size_ids[2].has_value() || v.workgroup_defines.size() >= 3;
    RequireSupport(point.workgroup.z == 1 || z_taken || point.workgroup.z == v.local_size_z,
                   fmt::format("variant {}'s shader fixes its local size z at {}: workgroup {} cannot run it", v.name,
                               v.local_size_z, Sized("", point.workgroup)));
    const uint32_t local_z = point.workgroup.z != 1 || z_taken ? point.workgroup.z : v.local_size_z;
    for (size_t i = 0; i < 2; ++i) {
      const uint32_t asked = i == 0 ? point.workgroup.x : point.workgroup.y;
      RequireSupport(v.literal_local_size[i] == 0 || asked == v.literal_local_size[i],
                     fmt::format("variant {}'s shader fixes its local size {} at {}: workgroup {} cannot run it", v.name,
                                 "xy"[i], v.literal_local_size[i], Sized("", point.workgroup)));
    }
    RequireWorkgroup(*context_, {point.workgroup.x, point.workgroup.y, local_z});
    for (size_t i = 0; i < 3; ++i) {
      RequireSupport(values_.groups[i] <= info.max_workgroup_count[i],
                     fmt::format("{} workgroups in dimension {} exceed the device's maxComputeWorkGroupCount ({})",
                                 values_.groups[i], "xyz"[i], info.max_workgroup_count[i]));
    }
    const uint32_t push_bytes = values_.push_bytes.empty() ? static_cast<uint32_t>(4 * values_.push.size())
                                                           : static_cast<uint32_t>(values_.push_bytes.size());
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
                    .local_size = {point.workgroup.x, point.workgroup.y, local_z},
                    .local_size_ids = v.local_size_ids,
                    .bindings = buffers,
                    .push_bytes = push_bytes,
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
      spec.specialization.push_back({.id = v.constants[i].id, .size = v.constants[i].bytes, .bits = values_.constants[i]});
    }
    for (size_t i = 0; i < m.buffers.size(); ++i) slots_.push_back({m.buffers[i].set, m.buffers[i].binding, false, i});
    for (size_t i = 0; i < m.uniforms.size(); ++i) slots_.push_back({m.uniforms[i].set, m.uniforms[i].binding, true, i});
    std::sort(slots_.begin(), slots_.end(),
              [](const Slot& a, const Slot& b) { return std::pair(a.set, a.binding) < std::pair(b.set, b.binding); });
    for (const Slot& slot : slots_) {
      spec.slots.push_back({.set = slot.set,
                            .binding = slot.binding,
                            .kind = slot.uniform ? DescriptorSlot::Kind::kUniformBuffer
                                                 : DescriptorSlot::Kind::kStorageBuffer});
    }
    RequireSupport(m.uniforms.size() <= info.max_dynamic_uniform_buffers,
                   fmt::format("{} uniform buffers exceed the device's maxDescriptorSetUniformBuffersDynamic ({})",
                               m.uniforms.size(), info.max_dynamic_uniform_buffers));
    kernel_ = std::make_unique<Kernel>(*context_, spec);
    for (const std::vector<std::byte>& block : values_.uniforms) {
      uniforms_.push_back(std::make_unique<Buffer>(*context_, block.size(), Memory::kDevice, true));
      uniforms_.back()->Upload(block);
    }
    if (values_.push_bytes.empty()) {
      for (const PushValue& p : values_.push) {
        const auto* bytes = reinterpret_cast<const std::byte*>(&p.bits);
        push_.insert(push_.end(), bytes, bytes + 4);
      }
    } else {
      push_ = values_.push_bytes;
    }
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
          initial_[i] = MakeInput(m, b, values_.counts[i], point_, ValuesAt(info, point_));
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
    bindings_ = std::make_unique<Bindings>(kernel_->Bind(InSlotOrder(ranges)));
  }

  // This variant's outputs from one run on buffers of the check's own, each followed by a guard
  // region of its own pattern (inside the bound range under --guard=inside): the outputs start
  // from the poison or their init, the inputs from their values. `failure` says which guard
  // changed, or which input, where one did.
  struct GuardedResult {
    std::vector<Data> outputs;  // per buffer; empty for an input
    Comparison failure{.passed = true};
  };
  GuardedResult GuardedRun() {
    const Manifest& m = *manifest_;
    const GuardPlace place = suite_->options.guard;
    const bool inside = place == GuardPlace::kInside || (place == GuardPlace::kAuto && !variant_->reads_length);
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
        for (uint64_t at = 0; at < bytes; ++at) start[at] = static_cast<std::byte>(kPoison >> (8 * (at % 4)));
      }
      guards.push_back(GuardPattern(m.name, b.name));
      std::memcpy(start.data() + bytes, guards.back().data(), kGuardBytes);
      buffers.push_back(std::make_unique<Buffer>(*context_, start.size()));
      buffers.back()->Upload(start);
      ranges.push_back({buffers.back().get(), inside ? bytes + kGuardBytes : bytes});
    }
    const Bindings bindings = kernel_->Bind(InSlotOrder(ranges));
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
                                                 inside ? ", in the guard bound inside its range" : "")};
        continue;
      }
      got.resize(bytes);
      if (b.output) {
        result.outputs[i] = std::move(got);
      } else if (auto changed = std::mismatch(got.begin(), got.end(), inputs_->host[i].begin());
                 changed.first != got.end()) {
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
    return result;
  }

  Comparison Check() override {
    GuardedResult run = GuardedRun();
    if (!run.failure.passed) return run.failure;
    const std::vector<Data>& got = run.outputs;
    const Manifest& m = *manifest_;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      if (!b.output) continue;
      // Every element written, and a finite float: what the reference variant is checked for
      // at least, and a clearer message than a comparison for the others.
      Comparison c = Unwritten(b, got[i]);
      if (!c.passed) return c;
      if (auto expression = variant_->check.find(b.name); expression != variant_->check.end()) {
        c = CompareScalars(b, got[i], Expected(i, -1, Scalars(b, got[i]), expression->second, nullptr),
                           variant_->tolerance, variant_->abs_tolerance,
                           fmt::format("[check] {} = \"{}\"", b.name, expression->second));
        if (!c.passed) return c;
      }
      // A struct's members, each checked by its own expression.
      for (size_t f = 0; f < b.type.fields.size(); ++f) {
        const std::string key = b.name + "." + b.type.fields[f].name;
        auto expression = variant_->check.find(key);
        if (expression == variant_->check.end()) continue;
        std::vector<size_t> scalars;
        const std::vector<double> want =
            Expected(i, static_cast<int>(f), got[i].size() / b.type.Bytes(), expression->second, &scalars);
        c = CompareScalars(b, got[i], want, variant_->tolerance, variant_->abs_tolerance,
                           fmt::format("[check] \"{}\" = \"{}\"", key, expression->second), &scalars);
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
      const std::vector<Data>& want = kept.outputs;
      for (size_t i = 0; i < m.buffers.size(); ++i) {
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
    return fmt::format("{}/{}/sg{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain), SubgroupOf(point_));
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

  static std::vector<double> Numbers(const Data& data, const ManifestBuffer& b) {
    std::vector<double> numbers(Scalars(b, data));
    for (size_t i = 0; i < numbers.size(); ++i) numbers[i] = Get(b.type, data, i);
    return numbers;
  }

  // `text` for output `out_index`: where `field` is -1 at each of its `count` scalars (i the scalar's
  // index, c its component), the inputs read at the same index; else at each component of member
  // `field` of its `count` elements (i the element, c the component), its scalars' indices into
  // `scalars`. A struct's member, and any input in a member's check, is read at the same element
  // and component (a scalar at its element whatever the component; NaN where it has no such
  // component).
  std::vector<double> Expected(size_t out_index, int field, size_t count, const std::string& text,
                               std::vector<size_t>* scalars) const {
    const Manifest& m = *manifest_;
    const ManifestBuffer& out = m.buffers[out_index];
    const std::vector<CheckInput> inputs = CheckInputs(m);
    std::vector<const Data*> data;
    for (const CheckInput& in : inputs) {
      data.push_back(m.buffers[in.buffer].output ? &initial_[in.buffer] : &inputs_->host[in.buffer]);
    }
    const uint32_t per = field < 0 ? out.type.Lanes() : out.type.fields[static_cast<size_t>(field)].components;
    const size_t n = field < 0 ? count : count * per;
    if (field >= 0) {
      scalars->resize(n);
      for (size_t p = 0; p < n; ++p) (*scalars)[p] = ScalarOf(out.type, p / per, field, static_cast<uint32_t>(p % per));
    }
    const size_t components = field < 0 ? (out.type.is_struct ? 1 : out.type.components) : per;
    Expression expression(text, CheckVariables(m));
    std::vector<double> want(n);
    const double width = point_.domain.x, height = point_.domain.y;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // EvaluatePoint made sure that every input an expression names is as long as the output.
    auto fill = [&](size_t variable, size_t start, size_t count_, double* values) {
      for (size_t k = 0; k < count_; ++k) {
        const size_t at = start + k;
        const size_t element = at / components, component = at % components;
        if (variable < 4) {
          values[k] = variable == 0   ? static_cast<double>(field < 0 ? at : element)
                      : variable == 1 ? width
                      : variable == 2 ? height
                                      : static_cast<double>(component);
          continue;
        }
        const CheckInput& in = inputs[variable - 4];
        const ManifestBuffer& b = m.buffers[in.buffer];
        const Data& d = *data[variable - 4];
        size_t scalar = at;
        if (in.field >= 0) {
          const uint32_t has = b.type.fields[static_cast<size_t>(in.field)].components;
          if (has > 1 && component >= has) {
            values[k] = nan;
            continue;
          }
          scalar = ScalarOf(b.type, element, in.field, has == 1 ? 0 : static_cast<uint32_t>(component));
        } else if (field >= 0) {
          const uint32_t has = b.type.components;
          if (has > 1 && component >= has) {
            values[k] = nan;
            continue;
          }
          scalar = element * has + (has == 1 ? 0 : component);
        }
        values[k] = scalar < Scalars(b, d) ? Get(b.type, d, scalar) : nan;
      }
    };
    try {
      expression.EvaluateEach(n, fill, want.data());
    } catch (const ExpressionError& e) {
      throw Error(fmt::format("[check] {}{} = \"{}\": {}", out.name,
                              field < 0 ? "" : "." + out.type.fields[static_cast<size_t>(field)].name, text, e.message));
    }
    return want;
  }

  // The inputs of this point's sizes: the kept ones, or made now (and kept in their place).
  std::shared_ptr<Inputs> SharedInputs() {
    const Manifest& m = *manifest_;
    std::string key = suite_->options.cache == CacheMode::kCold ? "cold" : "warm";
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      if (!m.buffers[i].output) key += fmt::format("/{}", values_.counts[i]);
      // An init expression may read the point's sizes: its inputs are the point's own.
      if (m.buffers[i].init == ManifestBuffer::Init::kExpression) {
        key += fmt::format("/{}/{}/sg{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain),
                           SubgroupOf(point_));
      }
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
      made->host[i] = MakeInput(m, m.buffers[i], values_.counts[i], point_, ValuesAt(context_->info(), point_));
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

  // Per buffer (m.buffers' order) -> per descriptor slot, the uniforms between them.
  std::vector<BufferRange> InSlotOrder(const std::vector<BufferRange>& buffers) const {
    std::vector<BufferRange> ranges;
    for (const Slot& slot : slots_) ranges.push_back(slot.uniform ? BufferRange{uniforms_[slot.index].get(), 0} : buffers[slot.index]);
    return ranges;
  }

  void Dispatch(Commands& c, const Bindings& bindings, const std::vector<uint32_t>& buffer_offsets) const {
    std::vector<uint32_t> offsets;
    for (const Slot& slot : slots_) offsets.push_back(slot.uniform ? 0 : buffer_offsets[slot.index]);
    c.Dispatch(*kernel_, bindings,
               {static_cast<uint32_t>(values_.groups[0]), static_cast<uint32_t>(values_.groups[1]),
                static_cast<uint32_t>(values_.groups[2])},
               offsets, std::span<const std::byte>(push_));
  }

  Suite* suite_;
  Context* context_;
  const Manifest* manifest_;
  const ManifestVariant* variant_;
  Point point_;
  PointValues values_;
  std::vector<std::byte> push_;
  // The descriptors by (set, binding): a storage buffer (its index in the manifest's buffers) or a
  // uniform buffer (in its uniforms).
  struct Slot {
    uint32_t set = 0, binding = 0;
    bool uniform = false;
    size_t index = 0;
  };
  std::vector<Slot> slots_;
  std::vector<std::unique_ptr<Buffer>> uniforms_;
  std::shared_ptr<Inputs> inputs_;
  std::vector<std::unique_ptr<Buffer>> outputs_;
  std::vector<Data> initial_;                     // per output with an init: its contents
  std::vector<std::unique_ptr<Buffer>> restore_;   // per output restored before each timed dispatch
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
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
}  // namespace

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
      // Every subgroup size a variant lists, after the domain: /sg<N>.
      .axes = SubgroupAxisOf(m),
      .make = [&m](Suite& suite, const ManifestVariant& v, const Point& p) -> std::unique_ptr<Case> {
        return std::make_unique<GpuCase>(suite, m, v, p);
      }};
  return loaded;
}

void PlaceOnDevice(Loaded& loaded, const DeviceInfo& info) {
  if (loaded.manifest.workgroup_expressions.empty()) return;
  const std::vector<Extent> workgroups = WorkgroupsOn(loaded.manifest, static_cast<double>(info.subgroup_size));
  for (ManifestVariant& v : loaded.family.variants) {
    if (v.workgroups_from_family) v.workgroups = workgroups;
  }
}

void Register(Suite& suite, const Loaded& loaded) {
  // Every point's expressions under the run's --domain and --workgroup overrides: a value that
  // is no use there is the manifest's error, reported before anything runs.
  for (const Point& p : GpuPoints(loaded.family, suite.options.domains, suite.options.workgroups, nullptr)) {
    DeviceValues device = suite.context != nullptr ? ValuesOf(suite.context->info()) : DeviceValues{};
    if (const uint32_t size = SubgroupOf(p); size != 0) device.subgroup_size = size;
    EvaluatePointAndReference(loaded.manifest, loaded.family.variants[p.variant], p.workgroup, p.domain, device);
  }
  RegisterFamily(suite, loaded.family);
}

}  // namespace csbench::manifest
