// A manifest case's buffers as scalars, the guard's pattern and seeds, and the expressions' values at a point.
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

DeviceValues ValuesOf(const DeviceInfo& info) {
  return {.subgroup_size = static_cast<double>(info.subgroup_size),
          .vendor_id = static_cast<double>(info.vendor_id),
          .device_id = static_cast<double>(info.device_id)};
}

uint32_t SubgroupOf(const Point& point) {
  for (const Coordinate& c : point.axes) {
    if (c.axis == "subgroup_size") return static_cast<uint32_t>(c.value.number());
  }
  return 0;
}

const ManifestVariant& MadeAt(const Manifest& m, const ManifestVariant& base, const Point& point) {
  if (m.axes.empty()) return base;
  // Static: the variants made here are referred to by every case and registered benchmark of the
  // point for the rest of the process, and a Manifest is a read-only declaration that holds no
  // cache of its own.
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

namespace manifest_detail {

uint64_t SeedOf(const std::string& family, const std::string& buffer) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a: a seed that depends on the names alone
  for (char c : family + "/" + buffer) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

std::vector<std::byte> GuardPattern(const std::string& family, const std::string& buffer) {
  std::vector<std::byte> guard(kGuardBytes);
  const uint64_t base = SplitMix64(SeedOf(family, buffer) ^ 0x67756172645f6d6bull);
  for (size_t i = 0; i < guard.size(); i += 8) {
    const uint64_t word = SplitMix64(base + i);
    std::memcpy(&guard[i], &word, 8);
  }
  return guard;
}

size_t Scalars(const ManifestBuffer& b, const Data& data) {
  const size_t header = b.type.array_offset;
  return data.size() < header ? 0 : (data.size() - header) / b.type.Bytes() * b.type.Lanes();
}

Lane LaneOf(const ElementType& t, size_t k) {
  const size_t at = t.array_offset;  // the header's bytes come first
  if (!t.is_struct && t.components == 1) return {at + k * t.Bytes(), t.scalar, t.scalar_bytes, -1, 0};
  if (!t.is_struct) {
    return {at + k / t.components * t.Bytes() + k % t.components * t.scalar_bytes, t.scalar, t.scalar_bytes, -1,
            static_cast<uint32_t>(k % t.components)};
  }
  const uint32_t lanes = t.Lanes();
  uint32_t lane = static_cast<uint32_t>(k % lanes);
  for (size_t f = 0; f < t.fields.size(); ++f) {
    const StructField& field = t.fields[f];
    if (lane < field.components) {
      return {at + k / lanes * t.stride + field.offset + lane * field.component_stride, field.scalar, field.scalar_bytes,
              static_cast<int>(f), lane};
    }
    lane -= field.components;
  }
  return {};
}

size_t ScalarOf(const ElementType& t, size_t element, int field, uint32_t component) {
  size_t lane = component;
  for (int f = 0; f < field; ++f) lane += t.fields[static_cast<size_t>(f)].components;
  return element * t.Lanes() + lane;
}

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

bool PlainFloats(const ElementType& t) {
  return !t.is_struct && t.scalar == Scalar::kFloat && t.scalar_bytes == 4 && t.Bytes() == t.components * 4u &&
         t.array_offset == 0;
}

float FloatAt(const Data& data, size_t k) {
  float v = 0;
  std::memcpy(&v, data.data() + 4 * k, 4);
  return v;
}

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

bool StillPoison(const ElementType& t, const Data& data, size_t k) {
  const Lane lane = LaneOf(t, k);
  if (lane.bytes < 2) return false;
  for (size_t i = 0; i < lane.bytes; ++i) {
    if (data[lane.offset + i] != static_cast<std::byte>(kPoison >> (8 * ((lane.offset + i) % 4)))) return false;
  }
  return true;
}

std::optional<size_t> ScalarAtByte(const ElementType& t, size_t byte) {
  if (byte < t.array_offset) return std::nullopt;  // the header's
  const size_t element = (byte - t.array_offset) / t.Bytes(), lanes = t.Lanes();
  for (size_t lane = 0; lane < lanes; ++lane) {
    const Lane at = LaneOf(t, element * lanes + lane);
    if (byte >= at.offset && byte < at.offset + at.bytes) return element * lanes + lane;
  }
  return std::nullopt;
}

DeviceValues ValuesAt(const DeviceInfo& info, const Point& point) {
  DeviceValues values = ValuesOf(info);
  if (const uint32_t size = SubgroupOf(point); size != 0) values.subgroup_size = size;
  return values;
}

PointValues Evaluated(const Manifest& m, const ManifestVariant& v, const Point& point, const DeviceValues& device) {
  try {
    return EvaluatePoint(m, v, point.workgroup, point.domain, device);
  } catch (const ManifestError& e) {
    throw Error(e.message);
  }
}

}  // namespace manifest_detail

}  // namespace csbench
