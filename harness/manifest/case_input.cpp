// A manifest case's inputs: buffers and images made from their init, and the poison.
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
#include "harness/manifest/data_files.hpp"
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
  // A file holds the whole buffer, its header's bytes too (case_files.cpp).
  if (b.init_file.Given()) return ReadDataFile(b.init_file, fmt::format("buffer '{}'", b.name), BufferShape(b, count));
  const ElementType& t = b.type;
  // A header's bytes first (zero here: the case writes the header's values), then the elements.
  Data data(t.array_offset + count * t.Bytes());
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
    const std::span<float> floats(reinterpret_cast<float*>(data.data() + t.array_offset), scalars);
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

void PoisonBytes(std::span<std::byte> bytes) {
  std::array<std::byte, 4> word;
  for (size_t at = 0; at < 4; ++at) word[at] = static_cast<std::byte>(kPoison >> (8 * at));
  ParallelFor(bytes.size(), size_t{1} << 22, [&](size_t begin, size_t end) {
    for (size_t at = begin; at < end; ++at) bytes[at] = word[at % 4];
  }, 4);
}

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

double ImageScale(const ImageFormat& f) {
  const int bits = static_cast<int>(8 * f.channel_bytes);
  if (f.kind == ImageFormat::Kind::kUnorm) return std::ldexp(1.0, bits) - 1;
  if (f.kind == ImageFormat::Kind::kSnorm) return std::ldexp(1.0, bits - 1) - 1;
  return 1;
}

double ImageValue(const ImageFormat& f, double stored) {
  if (f.kind == ImageFormat::Kind::kUnorm) return stored / ImageScale(f);
  if (f.kind == ImageFormat::Kind::kSnorm) return std::max(stored / ImageScale(f), -1.0);
  return stored;
}

double ImageStored(const ImageFormat& f, double value) {
  if (f.kind == ImageFormat::Kind::kUnorm) return std::round(std::clamp(value, 0.0, 1.0) * ImageScale(f));
  if (f.kind == ImageFormat::Kind::kSnorm) return std::round(std::clamp(value, -1.0, 1.0) * ImageScale(f));
  return value;
}

Data MakeImage(const Manifest& m, const ManifestImage& image, std::array<uint32_t, 3> size, const Point& point,
               const DeviceValues& device) {
  if (image.init_file.Given()) {
    return ReadDataFile(image.init_file, fmt::format("image '{}'", image.name), ImageShape(image, size));
  }
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

}  // namespace manifest_detail

}  // namespace csbench
