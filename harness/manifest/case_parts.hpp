// The host side of a manifest case's data (harness/manifest/case.hpp): buffers as scalars, the
// inputs made from their init, the guard and poison patterns, and the comparisons of outputs.
#pragma once

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
#include "harness/manifest/case.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/manifest/manifest.hpp"
#include "harness/measure/measure.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench::manifest_detail {

using Data = std::vector<std::byte>;
// What a resource without contents of a kind reads as (GpuCase::Host, GpuCase::Initial).
inline const Data kNoData;

// The inputs of the points that share one set of input sizes (successive benchmarks of a
// domain): their values, and their device copies. One set is kept at a time.
struct Inputs {
  std::string key;
  // Per resource (buffers, then images); null for one the sequence writes. Shared with MadeData.
  std::vector<std::shared_ptr<const Data>> host;
  std::vector<std::unique_ptr<RotatingInput>> device;          // per buffer
  std::vector<std::vector<std::unique_ptr<Image>>> images;     // per image, its copies
  uint32_t copies = 1;
  uint32_t image_copies = 1;  // copies of each input image: `copies` where there is one, else 1
};

// Copies of the input images under --cache=cold at most: each is a descriptor set of its own.
inline constexpr uint32_t kMaxImageCopies = 64;

// The reference variant's outputs at one point, which every other variant of the point is
// compared with; those of the points last checked are kept (State::references).
struct ReferenceOutputs {
  std::string key;
  // Per resource; empty for an input. Read back from the device copies when first needed
  // (GpuCase::ReferenceHost): none at all where every variant's verdict is the device's.
  std::vector<Data> outputs;
  std::string failure;  // why its own check run failed (a guard, an input); empty: it passed
  // The written resources' device copies: per buffer (each followed by its guard region), per image
  // (a view's are its image's); null for the others.
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<std::unique_ptr<Image>> images;
  // The device copies' bytes.
  uint64_t DeviceBytes() const {
    uint64_t bytes = 0;
    for (const auto& b : buffers) bytes += b ? b->size() : 0;
    for (const auto& image : images) {
      for (uint32_t level = 0; image && level < image->levels(); ++level) bytes += image->LevelBytes(level);
    }
    return bytes;
  }
};
// The reference outputs kept, by device bytes: the oldest go first beyond it, the newest is
// always kept.
inline constexpr uint64_t kReferenceBytes = uint64_t{1} << 30;

// The contents made from the resources' inits (the inputs, and the starting contents of the written
// resources that have one), kept by everything they depend on (GpuCase::MadeKey), so that the cases
// of one domain (a sweep of workgroups, the variants that write what others read) make them once:
// an init expression is evaluated on the host, seconds at 8192x8192. The oldest go first once
// more than kMadeBytes are kept; the cases made ahead on other threads share them.
struct MadeData {
  std::mutex lock;
  std::deque<std::pair<std::string, std::shared_ptr<const Data>>> kept;
  uint64_t bytes = 0;
};
inline constexpr uint64_t kMadeBytes = uint64_t{2} << 30;

struct State {
  std::shared_ptr<Inputs> inputs;
  // The reference's outputs of the points last checked, oldest first, each point once: a sweep
  // checks the reference at every workgroup before the variants after it, which then find theirs
  // here instead of running the reference again.
  std::deque<ReferenceOutputs> references;
  MadeData made;
};

// The bytes of the guard region that follows each storage buffer in the check run: at least a page,
// so that a kernel's overrun by a whole workgroup's stride lands in it; a multiple of every
// offset alignment.
inline constexpr uint64_t kGuardBytes = 4096;

struct Lane {
  size_t offset = 0;  // in the buffer
  Scalar scalar = Scalar::kFloat;
  uint32_t bytes = 4;
  int field = -1;          // a struct's member
  uint32_t component = 0;  // in the vector or member
};

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

uint64_t SeedOf(const std::string& family, const std::string& buffer);

// Each buffer's guard has a pattern of its own: a kernel that copies past the end of one buffer
// into another's guard changes that guard too.
std::vector<std::byte> GuardPattern(const std::string& family, const std::string& buffer);

// A buffer's scalars as the host holds them: `count` elements of the buffer's type, each at its
// std430 stride (a 3-vector's fourth scalar is padding), after its header's bytes where it has one.
// Scalar k is lane k % Lanes() of element k / Lanes(): a vector's component, or a struct's member's
// component in declaration order.
size_t Scalars(const ManifestBuffer& b, const Data& data);

Lane LaneOf(const ElementType& t, size_t k);

// The scalar index of member `field`'s component `component` of `element`.
size_t ScalarOf(const ElementType& t, size_t element, int field, uint32_t component);

// Scalar k of `data` as a number.
double Get(const ElementType& t, const Data& data, size_t k);

// Whether a buffer of `t` is one array of 32-bit floats (no struct, float scalars, no padding
// between elements, no header before them), scalar k at byte 4k: the checks' fast paths read it so,
// with no Get a scalar.
bool PlainFloats(const ElementType& t);

float FloatAt(const Data& data, size_t k);

// Sets scalar k of `data` to `value` (whole and in range for an integer type; any float).
void Set(const ElementType& t, Data& data, size_t k, double value);

// Whether scalar k of `data` still holds the poison's bytes at its place (the buffer was filled
// with kPoison's 4 bytes over and over). An 8-bit scalar is never called unwritten: one byte in 256
// would equal the poison by chance.
bool StillPoison(const ElementType& t, const Data& data, size_t k);

// The scalar whose bytes hold byte `byte` of a buffer of `t`; nullopt for padding or the header.
std::optional<size_t> ScalarAtByte(const ElementType& t, size_t byte);

// The expressions' device variables at `point`: SUBGROUP_SIZE is the size the point requires, where
// it requires one.
DeviceValues ValuesAt(const DeviceInfo& info, const Point& point);

// EvaluatePoint, its error an Error (registration evaluated every point already: this is a
// guard, so that no ManifestError can escape a benchmark).
PointValues Evaluated(const Manifest& m, const ManifestVariant& v, const Point& point, const DeviceValues& device);

// Fills `target`'s scalars of `data` by `init`.
void Fill(const Manifest& m, const ManifestBuffer& b, const ManifestBuffer::MemberInit& init, const InitTarget& target,
          Data& data, const Point& point, const DeviceValues& device);

// A buffer's contents from its init; a header's bytes are left zero (the case writes the point's
// header values: PointValues::headers).
Data MakeInput(const Manifest& m, const ManifestBuffer& b, uint64_t count, const Point& point,
               const DeviceValues& device);

// `bytes` filled with the poison's bytes, word after word, on every host thread.
void PoisonBytes(std::span<std::byte> bytes);

// An image's channels as an element type whose scalars are the stored numbers: a float format's
// floats, a normalised format's unsigned or signed integers (ImageValue scales them), an integer
// format's integers.
ElementType ImageElement(const ImageFormat& f);

// The largest stored number of a normalised channel (1 for the others).
double ImageScale(const ImageFormat& f);

// A stored channel as the shader reads it: a normalised one scaled to [0, 1] or [-1, 1].
double ImageValue(const ImageFormat& f, double stored);

// A value as a normalised channel stores it (rounded to the nearest step, within the range); others
// unchanged.
double ImageStored(const ImageFormat& f, double value);

Data MakeImage(const Manifest& m, const ManifestImage& image, std::array<uint32_t, 3> size, const Point& point,
               const DeviceValues& device);

std::string IndexText(const ManifestBuffer& b, size_t i);

// Fails at the first scalar of output `got` that no invocation wrote (still poisoned, where the
// output started from the poison) or that is not a finite float.
// `finite`: a float that is not finite fails too (not for an output checked against an `expect`
// file, whose own NaNs and infinities it matches).
Comparison Unwritten(const ManifestBuffer& b, const Data& got, bool started, bool finite = true);

// Scalar i of `got` against the value `want`: 0 where it matches (a float within `abs_tolerance`
// or NaN where NaN is wanted; an integer exactly); else a float's relative error (floor 1e-6, as
// the built-in families' Compare), infinite for an integer that differs or a float not finite.
double FloatError(double g, double want, double abs_tolerance);

double ScalarError(const ElementType& t, const Data& got, size_t i, double want, double abs_tolerance);

// Whether the comparison is exact: no scalar compared is a float. The scalars of one element (or
// of the one member `only` lists) hold every type compared. Decided before the threads: a shared
// flag written at every float would pass its cache line round the cores, seconds over a large
// buffer (docs/perf-notes.md, section 15).
bool ExactComparison(const ManifestBuffer& b, size_t n, const std::vector<size_t>* only);

// The comparison `worst` makes of one buffer: integers exactly (an integer's error is 0 or
// infinite), floats within `tolerance`, with the message of a failure.
Comparison Compared(const ManifestBuffer& b, const Data& got, const WorstScalar& worst, bool exact, double tolerance,
                    const std::string& against, const std::vector<size_t>* only);

// The worst scalar of `got` against `want` (one buffer), compared as ScalarError does, over every
// host thread. `only`: the scalars want[j] is for (a struct member's); null: want[j] is scalar j's.
Comparison CompareScalars(const ManifestBuffer& b, const Data& got, const std::vector<double>& want, double tolerance,
                          double abs_tolerance, const std::string& against, const std::vector<size_t>* only = nullptr);

// CompareScalars against the scalars of `want`, a buffer of b's type (the reference variant's output), each read
// where it is compared.
Comparison CompareBuffers(const ManifestBuffer& b, const Data& got, const Data& want, double tolerance,
                          double abs_tolerance, const std::string& against);

// One resource's contents as a check reads them: a buffer's scalars, or an image's channels
// (normalised as the shader sees them), by scalar index.
struct Reading {
  const Data* data = nullptr;
  ElementType type;
  const ImageFormat* format = nullptr;  // an image's
  std::array<uint32_t, 3> size{};       // an image's width, height, depth (or layers)
  bool three_coordinates = false;       // a 3-D or arrayed image: read at (x, y, z)
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
double ReadCall(const Reading& r, const std::string& name, const double* args, int count, BadRead& bad);

// Bytes as a string's characters: a key of a map.
std::string BytesText(const std::vector<std::byte>& bytes);

}  // namespace csbench::manifest_detail
