// libFuzzer target for the manifest reader: any bytes go to ParseManifest, which must either
// return a Manifest or throw ManifestError. Any other exception, a crash or a sanitizer report is
// a bug. A manifest that parses is then evaluated at points it did not declare (the smallest
// domain, odd sizes, the largest extents), where EvaluatePoint must again either give numbers
// or throw ManifestError.
//
// Built only with -DCSBENCH_FUZZ=ON and clang (see tests/fuzz/CMakeLists.txt); tests/fuzz/fuzz.sh
// builds it and runs it for a given number of seconds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness/manifest/manifest.hpp"

namespace {

// Points beside the manifest's own: the smallest, a prime-sized one (counts that do not divide),
// a large 1-D one and the largest extents a manifest may name.
constexpr csbench::Extent kDomains[] = {{1, 1}, {37, 29}, {1u << 20, 1}, {0xffffffffu, 0xffffffffu}};
constexpr csbench::Extent kWorkgroups[] = {{1, 1}, {64, 1}, {16, 16}, {0xffffffffu, 1}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  csbench::Manifest manifest;
  try {
    manifest = csbench::ParseManifest(text, "fuzz/manifest.toml");
  } catch (const csbench::ManifestError&) {
    return 0;
  }
  // What the loader would resolve against a shader, made up here from the manifest's own keys: each
  // specialization key a constant of a width and kind in turn, [push] values and each [[uniform]]'s
  // values fields one after another, so that the typed evaluation of every new table is fuzzed too.
  for (csbench::ManifestVariant& variant : manifest.variants) {
    static constexpr uint32_t kBytes[] = {4, 2, 1, 8};
    static constexpr char kKinds[] = {'b', 'i', 'u', 'f'};
    uint32_t n = 0;
    for (const auto& [key, text] : variant.specialization) {
      variant.constants.push_back({.id = n, .bytes = kKinds[n % 4] == 'b' ? 4 : kBytes[n / 4 % 4],
                                   .kind = kKinds[n % 4], .text = text, .key = key});
      ++n;
    }
    auto lay_out = [&](const csbench::NamedValues& values, uint32_t& size) {
      std::vector<csbench::BlockField> fields;
      for (const auto& [member, texts] : values) {
        for (const std::string& text : texts) {
          const uint32_t bytes = kBytes[fields.size() % 4];
          size = (size + bytes - 1) / bytes * bytes;
          fields.push_back({.offset = size, .bytes = bytes, .kind = kKinds[fields.size() % 4], .text = text,
                            .key = member});
          size += bytes;
        }
      }
      return fields;
    };
    variant.push_fields = lay_out(variant.push_values, variant.push_size);
    for (const csbench::ManifestUniform& u : manifest.uniforms) {
      uint32_t size = 0;
      variant.uniform_fields.push_back(lay_out(u.values, size));
      variant.uniform_sizes.push_back(size);
    }
  }
  for (const csbench::ManifestVariant& variant : manifest.variants) {
    for (size_t i = 0; i < std::size(kDomains); ++i) {
      try {
        csbench::EvaluatePoint(manifest, variant, kWorkgroups[i], kDomains[i],
                               {.subgroup_size = i == 0 ? 1.0 : 128.0, .vendor_id = 4318, .device_id = 9008});
      } catch (const csbench::ManifestError&) {
      }
    }
  }
  return 0;
}
