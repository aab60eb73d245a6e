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
  for (const csbench::ManifestVariant& variant : manifest.variants) {
    for (size_t i = 0; i < std::size(kDomains); ++i) {
      try {
        csbench::EvaluatePoint(manifest, variant, kWorkgroups[i], kDomains[i]);
      } catch (const csbench::ManifestError&) {
      }
    }
  }
  return 0;
}
