// A manifest case's check on the device (GpuCase::CheckOnDevice, gpu_case.hpp): the check
// expression translated to GLSL (check_glsl.hpp) inside a compute shader made for the output and
// the resources the expression reads, run over the check run's own resources, one invocation a
// scalar. It lists the scalars the host must judge; the host's rules stay the judge of each.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "harness/manifest/check_glsl.hpp"
#include "harness/manifest/gpu_case.hpp"

namespace csbench::manifest_detail {

namespace {

// The storage image formats GLSL reads without StorageImageExtendedFormats.
bool BasicStorageFormat(const std::string& glsl) {
  static const std::set<std::string> basic = {"rgba32f", "rgba16f", "r32f",    "rgba32i", "rgba16i", "rgba8i",
                                              "r32i",    "rgba32ui", "rgba16ui", "rgba8ui", "r32ui"};
  return basic.contains(glsl);
}

}  // namespace

std::string GpuCase::CheckNumbers::Add(double value) {
  values.push_back(value);
  const size_t at = values.size() - 1;
  return fmt::format("csb_k.k[{}].{}", at / 2, "xy"[at % 2]);
}

std::string GpuCase::CheckNumbers::Declaration(uint32_t binding) const {
  return fmt::format("layout(std140, set = 0, binding = {}) uniform CsbNumbers {{ dvec2 k[{}]; }} csb_k;\n", binding,
                     std::max<size_t>((values.size() + 1) / 2, 1));
}

std::string GpuCase::CheckNumbers::Whole(double value) { return fmt::format("uint({})", Add(value)); }

bool GpuCase::DeviceResource(const std::vector<std::unique_ptr<Buffer>>& buffers,
                             const std::vector<std::unique_ptr<Image>>& images, size_t r, uint32_t binding,
                             std::string& glsl, CheckNumbers& numbers, const std::string& tag) const {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  const DeviceInfo& info = context_->info();
  if (r < buffers_n) {
    const ManifestBuffer& b = m.buffers[r];
    const ElementType& t = b.type;
    if (t.is_struct || t.scalar_bytes != 4 || buffers.size() <= r || buffers[r] == nullptr) return false;
    const size_t scalars = values_.counts[r] * t.Lanes();
    if (scalars >= (size_t{1} << 31)) return false;
    const std::string word = fmt::format("csb_res{}.w[{}u + k / {}u * {}u + k % {}u]", tag, t.array_offset / 4,
                                         t.components, t.Bytes() / 4, t.components);
    const std::string value = t.scalar == Scalar::kFloat ? fmt::format("double(uintBitsToFloat({}))", word)
                              : t.scalar == Scalar::kInt ? fmt::format("double(int({}))", word)
                                                         : fmt::format("double({})", word);
    const std::string count = numbers.Add(static_cast<double>(scalars));
    glsl += fmt::format(
        "layout(std430, set = 0, binding = {0}) readonly buffer CsbRes{1} {{ uint w[]; }} csb_res{1};\n"
        "double csb_scalar{1}(uint k) {{\n"
        "  if (k >= uint({2})) {{ csb_bad = true; return 0.0LF; }}\n"
        "  return {3};\n"
        "}}\n"
        "double csb_read{1}(double j) {{\n"
        "  if (j != floor(j) || j < 0.0LF || j >= {2}) {{ csb_bad = true; return 0.0LF; }}\n"
        "  return csb_scalar{1}(uint(j));\n"
        "}}\n",
        binding, tag, count, value);
    return true;
  }
  const size_t k = r - buffers_n;
  const ManifestImage& image = m.images[k];
  const ImageFormat& f = image.format;
  if (f.kind == ImageFormat::Kind::kUnorm || f.kind == ImageFormat::Kind::kSnorm) return false;
  // An image of one level and one layer, its own (not a view of another's level): the shader binds
  // the image's whole view.
  if (image.arrayed || image.levels != 1 || image.view_of >= 0) return false;
  if (images.size() <= k || images[k] == nullptr || !images[k]->storage()) return false;
  if (!BasicStorageFormat(f.glsl)) {
    auto extended = info.capability_features.find("StorageImageExtendedFormats");
    if (extended == info.capability_features.end() || !extended->second) return false;
  }
  const auto& s = values_.image_sizes[k];
  const size_t scalars = size_t{s[0]} * s[1] * s[2] * f.channels;
  if (scalars >= (size_t{1} << 31)) return false;
  const bool three_d = image.three_d;
  const std::string prefix = f.kind == ImageFormat::Kind::kUint ? "u" : f.kind == ImageFormat::Kind::kInt ? "i" : "";
  const std::string type = fmt::format("{}image{}", prefix, three_d ? "3D" : "2D");
  const std::string at = three_d ? "ivec3(x, y, z)" : "ivec2(x, y)";
  const std::string count = numbers.Whole(static_cast<double>(scalars));
  const std::array<std::string, 3> size = {numbers.Whole(s[0]), numbers.Whole(s[1]), numbers.Whole(s[2])};
  // The texel's channel c as the host reads it (Reading::At): a float channel as stored, an
  // integer one as its value.
  glsl += fmt::format(
      "layout(set = 0, binding = {0}, {1}) readonly uniform {2} csb_res{3};\n"
      "double csb_texel{3}(int x, int y, int z, uint c) {{\n"
      "  return double(imageLoad(csb_res{3}, {4})[c]);\n"
      "}}\n"
      "double csb_scalar{3}(uint k) {{\n"
      "  if (k >= {5}) {{ csb_bad = true; return 0.0LF; }}\n"
      "  const uint t = k / {6}u;\n"
      "  return csb_texel{3}(int(t % {7}), int(t / {7} % {8}), int(t / ({7} * {8})), k % {6}u);\n"
      "}}\n",
      binding, f.glsl, type, tag, at, count, f.channels, size[0], size[1]);
  // A read by coordinates: whole numbers, a channel the format has; outside the image the edge's
  // texel, or 0 where the image's `outside` says so (ReadCall's rules).
  std::string body = fmt::format("  if (vc != floor(vc) || vc < 0.0LF || vc >= {}.0LF) {{ csb_bad = true; return 0.0LF; }}\n"
                                 "  bool outside = false;\n",
                                 f.channels);
  const int dims = three_d ? 3 : 2;
  std::string clamped;
  for (int d = 0; d < dims; ++d) {
    const char axis = "xyz"[d];
    body += fmt::format("  if (v{0} != floor(v{0}) || abs(v{0}) > 1e9LF) {{ csb_bad = true; return 0.0LF; }}\n"
                        "  const int p{0} = int(v{0}), last{0} = int({1}) - 1;\n"
                        "  if (p{0} < 0 || p{0} > last{0}) outside = true;\n",
                        axis, size[static_cast<size_t>(d)]);
    clamped += fmt::format("clamp(p{0}, 0, last{0}), ", axis);
  }
  body += image.outside_zero ? "  if (outside) return 0.0LF;\n" : "";
  body += fmt::format("  return csb_texel{}({}{}uint(vc));\n", tag, clamped, three_d ? "" : "0, ");
  glsl += fmt::format("double csb_read{}(double vx, double vy{}, double vc) {{\n{}}}\n", tag, three_d ? ", double vz" : "",
                      body);
  return true;
}

GpuCase::DeviceCheck GpuCase::CheckOnDevice(const GuardedResult& run, const std::vector<Data>& got, size_t out,
                                            const std::string& text) const {
  // A check the device cannot make (its shader does not compile or make a pipeline there) is the
  // host's, as it was before there were checks on the device; the reason is kept.
  try {
    return DeviceSuspects(run, got, out, text);
  } catch (const Error& e) {
    return {.refused = e.what()};
  } catch (const ExpressionError& e) {
    return {.refused = e.message};
  }
}

GpuCase::DeviceCheck GpuCase::DeviceSuspects(const GuardedResult& run, const std::vector<Data>& got, size_t out,
                                             const std::string& text) const {
  const Manifest& m = *manifest_;
  const DeviceInfo& info = context_->info();
  if (suite_->options.checks == CheckPlace::kHost) return {.refused = "--checks=host"};
  if (!info.capability_features.contains("Float64") || !info.capability_features.at("Float64")) {
    return {.refused = "the device has no float64 in shaders"};
  }
  const size_t buffers_n = m.buffers.size();
  const bool image_out = out >= buffers_n;
  // Every resource the device can read, each at a binding of its own; the output at 0.
  std::string resources;
  std::vector<size_t> bound;
  std::set<size_t> readable;
  // Every number of the point (sizes, the host's sums, tolerances) is read from a buffer, so that
  // one shader, compiled and made into a pipeline once, serves every point and variant alike.
  CheckNumbers numbers;
  if (!DeviceResource(run.buffers, run.images, out, 0, resources, numbers, std::to_string(out))) {
    return {.refused = "the output's type"};
  }
  bound.push_back(out);
  readable.insert(out);
  for (size_t r = 0; r < ResourceCount(); ++r) {
    if (r == out) continue;
    std::string declaration;
    if (!DeviceResource(run.buffers, run.images, r, static_cast<uint32_t>(bound.size()), declaration, numbers,
                        std::to_string(r))) {
      continue;
    }
    resources += declaration;
    bound.push_back(r);
    readable.insert(r);
  }

  GlslNames names;
  const std::vector<CheckInput> inputs = CheckInputs(m);
  const bool c_taken = std::any_of(inputs.begin(), inputs.end(), [](const auto& in) { return in.name == "c"; });
  names.variables["i"] = image_out ? "double(element)" : "double(g)";
  names.variables["W"] = numbers.Add(point_.domain.x);
  names.variables["H"] = numbers.Add(point_.domain.y);
  names.variables[c_taken ? "csbench_component" : "c"] = "double(component)";
  for (const CheckInput& in : inputs) {
    const size_t r = in.image ? buffers_n + in.buffer : in.buffer;
    // An output's initial contents are not on the device after the run; a struct's member is
    // read a lane at a time.
    if (in.field >= 0 || written_[r] || !readable.contains(r)) continue;
    names.variables[in.name] = fmt::format("csb_scalar{}(g)", r);
  }
  if (!m.images.empty()) {
    names.variables["x"] = "double(coordinate.x)";
    names.variables["y"] = "double(coordinate.y)";
    names.variables["z"] = "double(coordinate.z)";
  }
  // The numbers the host computes once per check: sums and extremes, axes, header members.
  Expression parsed(text, CheckVariables(m), CheckFunctions(m));
  const std::vector<std::string> used = parsed.Used();
  auto uses = [&](const std::string& name) { return std::find(used.begin(), used.end(), name) != used.end(); };
  for (const CheckStat& stat : CheckStats(m)) {
    if (!uses(stat.name)) continue;
    const double value = Stat(InputReading(inputs[stat.input]), stat.kind);
    if (std::isfinite(value)) names.variables[stat.name] = numbers.Add(value);
  }
  for (const std::string& axis : CheckAxes(m)) {
    auto value = variant_->numeric_defines.find(axis);
    if (value != variant_->numeric_defines.end() && std::isfinite(value->second)) {
      names.variables[axis] = numbers.Add(value->second);
    }
  }
  for (const CheckHeader& h : CheckHeaders(m)) {
    const Data& data = written_[h.buffer] ? got[h.buffer] : Host(h.buffer);
    const double value = HeaderValue(m.buffers[h.buffer].header_fields[h.field], data);
    if (std::isfinite(value)) names.variables[h.name] = numbers.Add(value);
  }
  for (size_t r : readable) {
    const bool image = r >= buffers_n;
    const int least = !image ? 1 : m.images[r - buffers_n].three_d ? 3 : 2;
    names.functions[ResourceName(r)] = {.glsl = fmt::format("csb_read{}", r), .least = least,
                                        .most = image ? least + 1 : 1};
  }
  const GlslTranslation translated = CheckToGlsl(text, names);
  if (!translated.refused.empty()) return {.refused = translated.refused};

  // The output's scalars: an image's texels and channels, a buffer's scalars.
  size_t count = 0;
  uint32_t components = 1;
  std::array<uint32_t, 3> size{point_.domain.x, std::max<uint32_t>(point_.domain.y, 1), 1};
  bool exact = false;
  if (image_out) {
    const ManifestImage& image = m.images[out - buffers_n];
    size = values_.image_sizes[out - buffers_n];
    components = image.format.channels;
    count = size_t{size[0]} * size[1] * size[2] * components;
    exact = image.format.Integer();
  } else {
    const ManifestBuffer& b = m.buffers[out];
    count = values_.counts[out] * b.type.Lanes();
    components = b.type.components;
    exact = b.type.scalar != Scalar::kFloat;
  }
  if (count == 0) return {};
  if (uint64_t{size[0]} * size[1] >= (uint64_t{1} << 32)) return {.refused = "a domain of 2^32 cells a slice or more"};
  // Half the host's tolerances: a value the device finds within them passes the host's check too,
  // whatever rounding of its own the device's float64 makes; any other is listed.
  const std::string within =
      exact ? "got == want"
            : fmt::format("!isnan(got) && !isinf(got) && (abs(got - want) <= {} || abs(got - want) <= {} * "
                          "max(abs(want), 1e-6LF))",
                          numbers.Add(0.5 * variant_->abs_tolerance), numbers.Add(0.5 * variant_->tolerance));
  const CheckWalk walk = WalkOf(out, count, components, size, numbers);
  if (numbers.values.size() > kMostCheckNumbers) {
    return {.refused = fmt::format("more than {} numbers (sizes, sums, tolerances)", kMostCheckNumbers)};
  }
  const std::string source = fmt::format(
      "#version 450\n"
      "layout(local_size_x = {0}) in;\n"
      "{3}"
      "layout(std430, set = 0, binding = {4}) buffer CsbSuspects {{ uint count; uint at[]; }} csb_suspects;\n"
      "bool csb_bad = false;\n"
      "{1}"
      "{2}"
      "void main() {{\n"
      "{5}"
      "  precise const double want = {6};\n"
      "  const double got = {7};\n"
      "  if (csb_bad || isnan(want) || isinf(want) || !({8})) {{\n"
      "    const uint k = atomicAdd(csb_suspects.count, 1u);\n"
      "    if (k < {9}u) csb_suspects.at[k] = g;\n"
      "  }}\n"
      "}}\n",
      kCheckGroup, kGlslCheckHelpers, resources, numbers.Declaration(bound.size()), bound.size() + 1, walk.main, translated.glsl,
      walk.Got(std::to_string(out)), within, kMostSuspects);

  std::vector<BufferRange> ranges;
  for (size_t r : bound) {
    ranges.push_back(r < buffers_n ? BufferRange{.buffer = run.buffers[r].get()}
                                   : BufferRange{.image = run.images[r - buffers_n].get()});
  }
  Buffer suspects(*context_, 4 * (1 + kMostSuspects));
  RunCheckShader(source, fmt::format("check of {} in {}", ResourceName(out), m.name), ranges, numbers, suspects,
                 walk.groups);
  std::vector<uint32_t> words(1 + kMostSuspects);
  suspects.Download(std::as_writable_bytes(std::span(words)));
  DeviceCheck check;
  if (words[0] > kMostSuspects) {
    check.overflow = true;
    return check;
  }
  check.suspects.assign(words.begin() + 1, words.begin() + 1 + words[0]);
  std::sort(check.suspects.begin(), check.suspects.end());
  return check;
}

}  // namespace csbench::manifest_detail
