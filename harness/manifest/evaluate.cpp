// Stage 3, evaluate: a variant's expressions parsed once and evaluated at each point (sizes,
// dispatches, push and uniform values, restrictions), and every point checked at load.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>

#include "harness/base/half.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

// One variant's expressions, parsed once and evaluated at each point: a manifest may declare
// 100000 points, and muparser takes microseconds to parse an expression but nanoseconds to
// evaluate it (parsing every expression anew at each point took seconds to load one manifest).
class PointEvaluator {
 public:
  PointEvaluator(const Manifest& m, const ManifestVariant& v, const DeviceValues& device = {})
      : m_(m), v_(&v), names_(SizeVariables(v)), family_part_(!v.is_pass), dispatch_part_(v.passes.empty()) {
    values_ = {0, 0, 0, 0, device.subgroup_size, device.vendor_id, device.device_id, 1, 1};
    for (const auto& [name, value] : v.numeric_defines) values_.push_back(value);  // names_'s order
    if (v.is_pass) values_.push_back(0);  // P
    for (const ManifestVariant& pass : v.passes) {
      passes_.push_back(std::make_unique<PointEvaluator>(m, pass, device));
      passes_.back()->repeat_.push_back(passes_.back()->Parse(pass.repeat, pass.pass_key + ".repeat", pass.line));
    }
    if (family_part_) {
      for (size_t k = 0; k < m.restrict.size(); ++k) {
        restrict_.push_back(Parse(m.restrict[k], fmt::format("[tune].restrict[{}]", k), m.restrict_lines[k]));
      }
      for (const ManifestBuffer& b : m.buffers) {
        counts_.push_back(Parse(b.count, fmt::format("[[buffer]] '{}'.count", b.name)));
        header_fields_.emplace_back();
        headers_.emplace_back();
        for (BlockField f : b.header_fields) {
          f.key = fmt::format("[[buffer]] '{}'.header.{}", b.name, f.key);
          header_fields_.back().push_back(Parse(f.text, f.key, b.header_line));
          headers_.back().push_back(std::move(f));
        }
      }
      for (const ManifestImage& image : m.images) {
        image_sizes_.push_back(Parse(image.width, fmt::format("[[image]] '{}'.width", image.name), image.line));
        image_sizes_.push_back(Parse(image.height, fmt::format("[[image]] '{}'.height", image.name), image.line));
        image_sizes_.push_back(image.arrayed
                                   ? Parse(image.layers, fmt::format("[[image]] '{}'.layers", image.name), image.line)
                                   : Parse(image.depth, fmt::format("[[image]] '{}'.depth", image.name), image.line));
      }
      elements_.push_back(Parse(v.elements, "elements"));
      bytes_.push_back(Parse(v.bytes, "bytes"));
      if (!v.arithmetic.empty()) arithmetic_.push_back(Parse(v.arithmetic, "arithmetic"));
    }
    if (dispatch_part_) {
      for (size_t i = 0; i < v.push.size(); ++i) {
        push_.push_back(Parse(v.push[i], fmt::format("[push].constants[{}]", i)));
      }
      for (size_t i = 0; i < 3; ++i) {
        groups_.push_back(Parse(v.groups[i], v.own_groups ? fmt::format("[[variant]] '{}'.groups[{}]", v.name, i)
                                                          : fmt::format("[dispatch].groups[{}]", i)));
      }
      for (const ManifestVariant::Constant& c : v.constants) {
        if (c.kind == 'b') continue;
        constants_.emplace(c.id, Parse(c.text, fmt::format("specialization.{}", c.key)));
      }
      for (const BlockField& f : v.push_fields) push_fields_.push_back(Parse(f.text, f.key));
      for (const auto& fields : v.uniform_fields) {
        uniform_fields_.emplace_back();
        for (const BlockField& f : fields) uniform_fields_.back().push_back(Parse(f.text, f.key));
      }
    }
    // A check reads each input at the output's index: the inputs it names must be as long. (A
    // struct's members are known once the shader is read: its checks wait for the loader.)
    for (const auto& [output, text] :
         HasUnresolvedStruct(m) || !family_part_ ? std::map<std::string, std::string>{} : v.check) {
      // A named copy: clang before 16 cannot capture a structured binding.
      const std::string& output_name = output;
      Reads reads{.text = text, .key = output_name};
      const std::string buffer_name = output_name.substr(0, output_name.find('.'));
      reads.output = std::find_if(m.buffers.begin(), m.buffers.end(),
                                  [&](const auto& b) { return b.name == buffer_name; }) - m.buffers.begin();
      // A header's member is one value, its check evaluated once (the loader parsed it).
      if (reads.output < m.buffers.size() && output_name.find('.') != std::string::npos) {
        const std::string member = output_name.substr(output_name.find('.') + 1);
        const auto& header = m.buffers[reads.output].header_fields;
        if (std::any_of(header.begin(), header.end(), [&](const BlockField& f) { return f.key == member; })) continue;
      }
      if (reads.output == m.buffers.size()) {
        reads.image = true;
        reads.output = std::find_if(m.images.begin(), m.images.end(),
                                    [&](const auto& i) { return i.name == buffer_name; }) - m.images.begin();
      }
      reads.by_element = output_name.find('.') != std::string::npos;
      std::vector<std::string> used;
      try {
        used = Expression(text, CheckVariables(m), CheckFunctions(m)).Used();
      } catch (const ExpressionError& e) {
        throw ManifestError{fmt::format("{}:{}: check {}: {}: {}", m.path.string(),
                                        v.check_lines.contains(output) ? v.check_lines.at(output) : v.line, output,
                                        Quoted(text), e.message)};
      }
      for (const CheckInput& in : CheckInputs(m)) {
        if (std::find(used.begin(), used.end(), in.name) == used.end()) continue;
        reads.inputs.push_back(in);
        // A struct's member is read at the output's element.
        if (in.field >= 0) reads.by_element = true;
      }
      checks_.push_back(std::move(reads));
    }
  }

  // The scalars of buffer `i` (or image `i`) at a point's values.
  uint64_t ScalarsOf(const PointValues& p, size_t i, bool image) const {
    if (image) {
      const auto& s = p.image_sizes[i];
      return uint64_t{s[0]} * s[1] * s[2] * m_.images[i].format.channels;
    }
    return p.counts[i] * m_.buffers[i].type.Lanes();
  }

  // The same variant at other values of the axes it takes (AtAxes of the same variant): the
  // expressions stay parsed, only the variables' values change. `at` must outlive the calls.
  void Rebind(const ManifestVariant& at) {
    v_ = &at;
    size_t k = 9;
    for (const auto& [name, value] : at.numeric_defines) values_[k++] = value;
    for (size_t i = 0; i < passes_.size(); ++i) passes_[i]->Rebind(at.passes[i]);
  }

  // Whether every [tune] restriction holds at the point.
  bool Allowed(Extent workgroup, Extent domain) {
    SetPoint(workgroup, domain);
    auto point = [&] {
      return fmt::format("variant {}, workgroup {}, domain {}", v_->name, Sized("", workgroup), Sized("", domain));
    };
    for (Keyed& r : restrict_) {
      if (Value(r, point) == 0) return false;
    }
    return true;
  }

  PointValues At(Extent workgroup, Extent domain, uint32_t repetition = 0) {
    SetPoint(workgroup, domain);
    if (v_->is_pass) values_.back() = repetition;
    // Formatted only for a message.
    auto point = [&] {
      return fmt::format("variant {}, workgroup {}, domain {}", v_->name, Sized("", workgroup), Sized("", domain));
    };
    const Manifest& m = m_;
    PointValues p;
    for (const auto& [name, value] : v_->pinned_defines) {
      const double at = name == "W" ? domain.x : name == "H" ? domain.y : name == "WG_X" ? workgroup.x : workgroup.y;
      if (value != at) {
        throw ManifestError{fmt::format("{}: defines.{} = {} (variant {}), but {} is {} at {}: a macro named as a size "
                                        "variable must have its value at every point (or take the workgroup by "
                                        "workgroup_defines)",
                                        m.path.string(), name, value, v_->name, name, at, point())};
      }
    }
    if (dispatch_part_) Dispatch(p, point);
    if (!family_part_) return p;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const double most = kMaxBufferBytes / b.type.Bytes();
      const double count = Value(counts_[i], point);
      if (count != std::floor(count) || count < 1 || count > most) {
        WholeNumber(m, count, most, counts_[i].key, b.count, point(),
                    fmt::format("a whole number of {} elements from 1, at most 2^48 bytes", b.type.glsl));
      }
      p.counts.push_back(static_cast<uint64_t>(count));
      p.headers.emplace_back();
      // An init file holds the header's bytes too.
      if (b.type.array_offset != 0 && !b.init_file.Given()) {
        p.headers.back() = BlockBytes(headers_[i], header_fields_[i], b.type.array_offset, point);
      }
    }
    for (size_t i = 0; i < m.images.size(); ++i) {
      std::array<uint32_t, 3> size{};
      for (size_t k = 0; k < 3; ++k) {
        Keyed& keyed = image_sizes_[3 * i + k];
        const double value = Value(keyed, point);
        if (value != std::floor(value) || value < 1 || value > 65536) {
          WholeNumber(m, value, 65536, keyed.key, keyed.expression.text(), point(), "a whole number of texels from 1 to 65536",
                      keyed.line);
        }
        size[k] = static_cast<uint32_t>(value);
      }
      p.image_sizes.push_back(size);
      // Its mip levels: each half the size of the one before, down to 1x1(x1).
      const ManifestImage& image = m.images[i];
      const uint32_t largest = std::max({size[0], size[1], image.three_d ? size[2] : 1u});
      const uint32_t chain = static_cast<uint32_t>(std::bit_width(largest));
      if (image.levels > chain) {
        throw ManifestError{
            fmt::format("{}:{}: [[image]] '{}'.levels: {}, but an image of {}x{}{} at {} has {} mip level{} (the full "
                        "chain down to 1x1)",
                        m.path.string(), image.line, image.name, image.levels, size[0], size[1],
                        image.three_d ? fmt::format("x{}", size[2]) : "", point(), chain, chain == 1 ? "" : "s")};
      }
    }
    // A swap trades two resources' slots: they must be alike at every point.
    for (const ManifestVariant* pass : PassesOf(*v_)) {
      for (const auto& [a, b] : pass->swaps) {
        auto find = [&](const std::string& name) -> std::pair<uint64_t, std::array<uint32_t, 3>> {
          for (size_t i = 0; i < m.buffers.size(); ++i) {
            if (m.buffers[i].name == name) return {p.counts[i], {}};
          }
          for (size_t i = 0; i < m.images.size(); ++i) {
            if (m.images[i].name == name) return {0, p.image_sizes[i]};
          }
          return {};
        };
        if (find(a) != find(b)) {
          throw ManifestError{fmt::format("{}:{}: {}.swap: {} and {} at {}: they differ in size (a swap trades two "
                                          "resources of one size)",
                                          m.path.string(), pass->line, pass->pass_key, Quoted(a), Quoted(b), point())};
        }
      }
    }
    for (const Reads& reads : checks_) {
      const std::string out_name = reads.image ? m.images[reads.output].name : m.buffers[reads.output].name;
      const uint64_t scalars = ScalarsOf(p, reads.output, reads.image);
      for (const CheckInput& read : reads.inputs) {
        if (read.image || reads.image) {
          const uint64_t has = ScalarsOf(p, read.buffer, read.image);
          if (has < scalars) {
            throw ManifestError{fmt::format("{}: check {} = {} at {}: reads '{}' at the same scalar, but '{}' has {} "
                                            "values and '{}' {} (read another index as {}(...))",
                                            m.path.string(), reads.key, Quoted(reads.text), point(), read.name,
                                            read.name, has, out_name, scalars, read.name)};
          }
          continue;
        }
        const size_t i = read.buffer;
        const ManifestBuffer& in = m.buffers[i];
        if (reads.by_element && p.counts[i] < p.counts[reads.output]) {
          throw ManifestError{fmt::format("{}: check {} = {} at {}: reads '{}' at the same element, but '{}' has {} "
                                          "elements and '{}' {}",
                                          m.path.string(), reads.key, Quoted(reads.text), point(), in.name, in.name,
                                          p.counts[i], out_name, p.counts[reads.output])};
        }
        if (!reads.by_element && p.counts[i] * in.type.components < scalars) {
          throw ManifestError{fmt::format("{}: check {} = {} at {}: reads '{}' at the same index, but '{}' has {} "
                                          "values and '{}' {}",
                                          m.path.string(), out_name, Quoted(reads.text), point(), in.name, in.name,
                                          p.counts[i] * in.type.components, out_name, scalars)};
        }
      }
    }
    p.elements = Value(elements_[0], point);
    p.bytes = Value(bytes_[0], point);
    if (p.elements <= 0 || p.bytes <= 0) {
      throw ManifestError{fmt::format("{}: elements and bytes at {} give {} and {}: expected more than 0 "
                                      "elements and bytes",
                                      m.path.string(), point(), p.elements, p.bytes)};
    }
    if (!arithmetic_.empty()) {
      p.arithmetic = Value(arithmetic_[0], point);
      if (!(p.arithmetic > 0)) {
        throw ManifestError{fmt::format("{}: arithmetic at {} gives {}: expected more than 0 operations a dispatch",
                                        m.path.string(), point(), p.arithmetic)};
      }
    }
    for (size_t k = 0; k < passes_.size(); ++k) {
      PointEvaluator& pass = *passes_[k];
      pass.At(workgroup, domain, 0);  // the pass's variables at the point
      const double repeat = pass.Value(pass.repeat_[0], point);
      if (repeat != std::floor(repeat) || repeat < 1 || repeat > kMaxDispatches) {
        WholeNumber(m, repeat, kMaxDispatches, pass.repeat_[0].key, v_->passes[k].repeat, point(),
                    fmt::format("a whole number of repetitions from 1 to {}", kMaxDispatches), pass.repeat_[0].line);
      }
      for (uint32_t r = 0; r < static_cast<uint32_t>(repeat); ++r) {
        if (p.passes.size() == kMaxDispatches) {
          throw ManifestError{fmt::format("{}: variant {} at {}: more than {} dispatches in one iteration",
                                          m.path.string(), v_->name, point(), kMaxDispatches)};
        }
        PointValues one = passes_[k]->At(workgroup, domain, r);
        one.pass = static_cast<uint32_t>(k);
        one.repetition = r;
        p.passes.push_back(std::move(one));
      }
    }
    return p;
  }

  // A dispatch's values at the point: its constants, push block, uniforms and groups.
  template <typename Point>
  void Dispatch(PointValues& p, const Point& point) {
    const Manifest& m = m_;
    for (const ManifestVariant::Constant& c : v_->constants) p.constants.push_back(ConstantBits(c, point));
    if (!v_->push_fields.empty()) p.push_bytes = BlockBytes(v_->push_fields, push_fields_, v_->push_size, point);
    for (size_t i = 0; i < v_->uniform_fields.size(); ++i) {
      p.uniforms.push_back(BlockBytes(v_->uniform_fields[i], uniform_fields_[i], v_->uniform_sizes[i], point));
    }
    for (size_t i = 0; i < v_->push.size(); ++i) {
      const double value = Value(push_[i], point);
      PushValue v{.is_float = v_->push[i].find('.') != std::string::npos};
      if (v.is_float) {
        const float f = static_cast<float>(value);
        if (!std::isfinite(f)) {
          throw ManifestError{fmt::format("{}: {}: {} at {} gives {}, beyond a 32-bit float", m.path.string(),
                                          push_[i].key, Quoted(v_->push[i]), point(), value)};
        }
        std::memcpy(&v.bits, &f, sizeof f);
      } else {
        if (value != std::floor(value) || value < -2147483648.0 || value > 4294967295.0) {
          throw ManifestError{fmt::format("{}: {}: {} at {} gives {}: expected a whole number that fits 32 bits "
                                          "(write a '.' in it for a float)",
                                          m.path.string(), push_[i].key, Quoted(v_->push[i]), point(), value)};
        }
        v.bits = value < 0 ? static_cast<uint32_t>(static_cast<int32_t>(value)) : static_cast<uint32_t>(value);
      }
      p.push.push_back(v);
    }
    for (size_t i = 0; i < 3; ++i) {
      const double groups = Value(groups_[i], point);
      if (groups != std::floor(groups) || groups < 1 || groups > 4294967295.0) {
        WholeNumber(m, groups, 4294967295.0, groups_[i].key, v_->groups[i], point(),
                    "a whole number of workgroups from 1");
      }
      p.groups[i] = static_cast<uint64_t>(groups);
    }
  }

 private:
  void SetPoint(Extent workgroup, Extent domain) {
    values_[0] = domain.x;
    values_[1] = domain.y;
    values_[2] = workgroup.x;
    values_[3] = workgroup.y;
    values_[7] = domain.z;
    values_[8] = workgroup.z;
  }

  // An expression and the key it was written under, for messages.
  struct Keyed {
    Expression expression;
    std::string key;
    uint32_t line = 0;  // where it was written, where known
  };
  struct Reads {
    size_t output = 0;  // a buffer, or an image where `image`
    bool image = false;
    std::string text;
    std::string key;          // the output, or "output.member"
    bool by_element = false;  // a struct's member is checked or read: by element, not by scalar
    std::vector<CheckInput> inputs;  // the inputs the check's expression names as variables
  };

  Keyed Parse(const std::string& text, std::string key, uint32_t line = 0) const {
    try {
      return {Expression(text, names_), std::move(key), line};
    } catch (const ExpressionError& e) {
      throw ManifestError{
          fmt::format("{}: {}: {} (variant {}): {}", m_.path.string(), key, Quoted(text), v_->name, e.message)};
    }
  }

  // The expression's value at the point, or a ManifestError naming its key and the point.
  template <typename Point>
  double Value(Keyed& keyed, const Point& point) {
    try {
      return keyed.expression.EvaluateInOrder(values_.data());
    } catch (const ExpressionError& error) {
      throw ManifestError{fmt::format("{}: {}: {} at {}: {}", PathAt(m_, keyed.line), keyed.key,
                                      Quoted(keyed.expression.text()), point(), error.message)};
    }
  }

  // A specialization constant's value at the point as its type's bits.
  template <typename Point>
  uint64_t ConstantBits(const ManifestVariant::Constant& c, const Point& point) {
    const std::string key = fmt::format("specialization.{} (variant {})", c.key, v_->name);
    if (c.kind == 'b') {
      if (c.text == "true") return 1;
      if (c.text == "false") return 0;
    }
    const double value = c.kind == 'b' ? ValueOfText(c.text, key, point) : Value(constants_.at(c.id), point);
    return ScalarBits(c.kind, c.bytes, value, key, c.text, point);
  }

  // `value` as a scalar of `kind` and `bytes`: a bool 0 or 1, an integer whole and within its
  // bits, a float finite in its precision's range. Throws ManifestError naming the key and point.
  template <typename Point>
  uint64_t ScalarBits(char kind, uint32_t bytes, double value, const std::string& key, const std::string& text,
                      const Point& point, uint32_t line = 0) const {
    auto refuse = [&](std::string_view what) {
      throw ManifestError{fmt::format("{}: {}: {} at {} gives {}: {}", PathAt(m_, line), key, Quoted(text), point(),
                                      value, what)};
    };
    const uint32_t bits = bytes * 8;
    switch (kind) {
      case 'b':
        if (value != 0 && value != 1) refuse("a bool takes true, false, 1 or 0");
        return value == 1 ? 1 : 0;
      case 'f':
        if (!std::isfinite(value)) refuse("not a finite number");
        if (bits == 64) return std::bit_cast<uint64_t>(value);
        if (bits == 32) {
          const auto f = static_cast<float>(value);
          if (!std::isfinite(f)) refuse("beyond a 32-bit float");
          return std::bit_cast<uint32_t>(f);
        }
        if (std::abs(value) > 65504) refuse("beyond a 16-bit float");
        return FloatToHalf(static_cast<float>(value));
      default: {
        const bool is_signed = kind == 'i';
        const double most = is_signed ? std::ldexp(1.0, static_cast<int>(bits) - 1) - 1
                                      : std::ldexp(1.0, static_cast<int>(bits)) - 1;
        const double least = is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) : 0;
        if (value != std::floor(value) || value < least || value > most) {
          refuse(fmt::format("expected a whole number that fits a {}-bit {} integer", bits,
                             is_signed ? "signed" : "unsigned"));
        }
        const auto whole = static_cast<int64_t>(value);
        const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        return static_cast<uint64_t>(whole) & mask;
      }
    }
  }

  // A block's bytes from its fields at the point.
  template <typename Point>
  std::vector<std::byte> BlockBytes(const std::vector<BlockField>& fields, std::vector<Keyed>& parsed, uint32_t size,
                                    const Point& point) {
    std::vector<std::byte> bytes(size);
    for (size_t i = 0; i < fields.size(); ++i) {
      const BlockField& f = fields[i];
      const uint64_t bits = ScalarBits(f.kind, f.bytes, Value(parsed[i], point), f.key, f.text, point, parsed[i].line);
      std::memcpy(bytes.data() + f.offset, &bits, f.bytes);  // little-endian hosts
    }
    return bytes;
  }

  template <typename Point>
  double ValueOfText(const std::string& text, const std::string& key, const Point& point) {
    Keyed keyed = Parse(text, key);
    return Value(keyed, point);
  }

  const Manifest& m_;
  const ManifestVariant* v_;
  std::vector<std::string> names_;  // W, H, WG_X, WG_Y, then the numeric defines
  std::vector<double> values_;      // in names_'s order
  // Whether this evaluator gives the family's values (counts, sizes, checks: not a pass's) and a
  // dispatch's (groups, push, constants: not those of a variant of passes).
  bool family_part_ = true, dispatch_part_ = true;
  std::vector<std::unique_ptr<PointEvaluator>> passes_;
  std::vector<Keyed> restrict_;  // [tune] restrict (the family's part only)
  std::vector<Keyed> repeat_;  // a pass's `repeat`, parsed over its variables
  std::vector<Keyed> counts_, image_sizes_, push_, groups_, elements_, bytes_, arithmetic_;
  std::map<uint32_t, Keyed> constants_;  // by constant_id
  std::vector<Keyed> push_fields_;
  std::vector<std::vector<Keyed>> uniform_fields_;
  // Per buffer, its header's fields (keyed for messages) and their expressions.
  std::vector<std::vector<BlockField>> headers_;
  std::vector<std::vector<Keyed>> header_fields_;
  std::vector<Reads> checks_;
};

struct PointEvaluations::Impl {
  const Manifest* m = nullptr;
  // By variant name and device values: the variant's evaluator, rebound to each point's axes.
  std::map<std::tuple<std::string, double, double, double>, std::unique_ptr<PointEvaluator>> evaluators;
  PointEvaluator& Of(const ManifestVariant& at, const DeviceValues& device) {
    auto& e = evaluators[{at.name, device.subgroup_size, device.vendor_id, device.device_id}];
    if (!e) e = std::make_unique<PointEvaluator>(*m, at, device);
    e->Rebind(at);
    return *e;
  }
};

PointEvaluations::PointEvaluations(const Manifest& m) : impl_(std::make_unique<Impl>()) { impl_->m = &m; }
PointEvaluations::~PointEvaluations() = default;

PointValues PointEvaluations::At(const ManifestVariant& at, Extent workgroup, Extent domain, const DeviceValues& device) {
  return impl_->Of(at, device).At(workgroup, domain);
}

bool PointEvaluations::Allowed(const ManifestVariant& at, Extent workgroup, Extent domain, const DeviceValues& device) {
  return impl_->m->restrict.empty() || impl_->Of(at, device).Allowed(workgroup, domain);
}

bool Allowed(const Manifest& m, const ManifestVariant& v, Extent workgroup, Extent domain, const DeviceValues& device) {
  return m.restrict.empty() || PointEvaluator(m, v, device).Allowed(workgroup, domain);
}

PointValues EvaluatePoint(const Manifest& m, const ManifestVariant& variant, Extent workgroup, Extent domain,
                          const DeviceValues& device) {
  return PointEvaluator(m, variant, device).At(workgroup, domain);
}

void EvaluatePointAndReference(const Manifest& m, const ManifestVariant& variant, Extent workgroup, Extent domain,
                               const DeviceValues& device) {
  EvaluatePoint(m, variant, workgroup, domain, device);
  // The reference variant runs at every point of the others, to compare with them there.
  for (const ManifestVariant& v : m.variants) {
    if (v.reference && &v != &variant) EvaluatePoint(m, v, workgroup, domain, device);
  }
}

namespace manifest_detail {

void EvaluateEveryPoint(const Reader& r, Manifest& m) {
  m.one_dimensional = true;
  // A variant's domains and test domains: its own, else the family's.
  auto domains_of = [&](const ManifestVariant& v) {
    std::vector<Extent> domains = v.domains.empty() ? m.domains : v.domains;
    const std::vector<Extent>& tests = v.test_domains.empty() ? m.test_domains : v.test_domains;
    domains.insert(domains.end(), tests.begin(), tests.end());
    return domains;
  };
  const std::vector<std::vector<Coordinate>> combinations = AxisCombinations(m);
  size_t points = 0;
  for (const ManifestVariant& v : m.variants) {
    points += v.workgroups.size() * domains_of(v).size() * std::max<size_t>(v.subgroup_sizes.size(), 1) *
              combinations.size();
  }
  if (points > kMaxPoints) {
    r.Fail(0, "[family]",
           fmt::format("{} points (variants x workgroups x domains x axes): at most {}", points, kMaxPoints));
  }
  size_t allowed = 0;
  for (const ManifestVariant& base : m.variants) {
    const std::vector<Extent> domains = domains_of(base);
    for (Extent d : domains) m.one_dimensional = m.one_dimensional && d.y == 1 && d.z == 1;
    for (Extent wg : base.workgroups) m.one_dimensional = m.one_dimensional && wg.y == 1 && wg.z == 1;
    // At each subgroup size the variant lists (SUBGROUP_SIZE is that size there), else at the
    // load's default.
    std::vector<DeviceValues> devices;
    for (uint32_t size : base.subgroup_sizes) devices.push_back({.subgroup_size = static_cast<double>(size)});
    if (devices.empty()) devices.emplace_back();
    for (const DeviceValues& device : devices) {
      // Parsed once for the variant (and the reference variant, which runs at every point of the
      // others to compare with them there), rebound to each combination of the axes.
      PointEvaluator evaluator(m, base, device);
      std::vector<const ManifestVariant*> reference_bases;
      for (const ManifestVariant& other : m.variants) {
        if (other.reference && &other != &base) reference_bases.push_back(&other);
      }
      std::vector<std::unique_ptr<PointEvaluator>> references;
      for (const ManifestVariant* other : reference_bases) {
        references.push_back(std::make_unique<PointEvaluator>(m, *other, device));
      }
      for (const std::vector<Coordinate>& combination : combinations) {
        const ManifestVariant v = m.axes.empty() ? base : AtAxes(base, combination);
        std::vector<ManifestVariant> reference_variants;
        for (const ManifestVariant* other : reference_bases) {
          reference_variants.push_back(m.axes.empty() ? *other : AtAxes(*other, combination));
        }
        evaluator.Rebind(v);
        for (size_t k = 0; k < references.size(); ++k) references[k]->Rebind(reference_variants[k]);
        // Workgroups of SUBGROUP_SIZE: those this size gives.
        const std::vector<Extent> workgroups =
            v.workgroup_expressions.empty() ? v.workgroups : WorkgroupsAt(v.workgroup_expressions, device.subgroup_size);
        for (Extent wg : workgroups) {
          for (Extent d : domains) {
            if (!evaluator.Allowed(wg, d)) continue;
            ++allowed;
            CheckDataFileSizes(m, evaluator.At(wg, d), v.name, wg, d);  // once the files are loaded
            for (auto& reference : references) reference->At(wg, d);
          }
        }
      }
    }
  }
  if (allowed == 0 && !m.restrict.empty()) {
    r.Fail(m.restrict_lines.front(), "[tune].restrict", "no point satisfies every restriction: the family has no benchmark");
  }
}

}  // namespace manifest_detail

}  // namespace csbench
