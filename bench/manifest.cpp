// A user's family, declared in a TOML manifest (harness/manifest/manifest.hpp): its descriptor
// built from the manifest and registered as a family; its cases are the harness's
// (harness/manifest/case.hpp).
#include "bench/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>

#include "harness/base/error.hpp"
#include "harness/base/provenance.hpp"
#include "harness/manifest/case.hpp"

namespace csbench::manifest {

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

const Loaded& Adopt(std::deque<Loaded>& all, Manifest manifest) {
  Loaded& loaded = all.emplace_back();
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
      // A manifest's expressions have the depth D and WG_Z: --domain=WxHxD is its to take.
      .three_dimensional = !m.one_dimensional,
      // Every subgroup size a variant lists, after the domain: /sg<N>; then [axes].
      .axes = AxesOf(m),
      .make = [&m](Suite& suite, const ManifestVariant& v, const Point& p) -> std::unique_ptr<Case> {
        return MakeManifestCase(suite, m, v, p);
      }};
  loaded.evaluations = std::make_shared<PointEvaluations>(m);
  loaded.family.shader_hash = [&loaded](const Point& p) { return ShaderHash(loaded, p); };
  // A point exists where every [tune] restriction holds, and where a workgroup of SUBGROUP_SIZE is
  // one its subgroup size gives (with subgroup_sizes, each size has its own workgroups).
  const bool sized = std::any_of(m.variants.begin(), m.variants.end(), [](const ManifestVariant& v) {
    return !v.workgroup_expressions.empty() && !v.subgroup_sizes.empty();
  });
  if (!m.restrict.empty() || sized) {
    loaded.family.point_at = [&loaded](const Point& p) {
      const Manifest& m = loaded.manifest;
      const ManifestVariant& base = loaded.family.variants[p.variant];
      if (!WorkgroupFitsSize(base, p.workgroup, SubgroupOf(p))) return false;
      if (m.restrict.empty()) return true;
      const ManifestVariant& v = MadeAt(m, base, p);
      return loaded.evaluations->Allowed(v, p.workgroup, p.domain, DeviceAt(loaded, p));
    };
  }
  return loaded;
}

void PlaceOnDevice(Loaded& loaded, const DeviceInfo& info) {
  loaded.device = ValuesOf(info);
  for (ManifestVariant& v : loaded.family.variants) {
    v.workgroups = VariantWorkgroupsOn(v, static_cast<double>(info.subgroup_size));
  }
}

std::string ShaderHash(const Loaded& loaded, const Point& p) {
  const ManifestVariant& v = MadeAt(loaded.manifest, loaded.family.variants[p.variant], p);
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
  for (const Point& p : GpuPoints(loaded.family, suite.options.domains, suite.options.workgroups,
                                  RunTestDomains(loaded.family, suite.options))) {
    DeviceValues device = suite.context != nullptr ? ValuesOf(suite.context->info()) : DeviceValues{};
    if (const uint32_t size = SubgroupOf(p); size != 0) device.subgroup_size = size;
    const Manifest& m = loaded.manifest;
    loaded.evaluations->At(MadeAt(m, loaded.family.variants[p.variant], p), p.workgroup, p.domain, device);
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
