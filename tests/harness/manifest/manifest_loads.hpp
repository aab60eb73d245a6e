// What the manifest tests that load a manifest beside a shader share: each load in a folder of its
// own (compiled shaders are kept by their path), the load's error as text, and a text edited in
// one place.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/temp_folder.hpp"

namespace csbench::testing {

class ManifestLoads : public ::testing::Test {
 protected:
  explicit ManifestLoads(const std::string& folder) : folder_(folder) {}
  // `manifest` as m.toml beside `shader` as k.comp, loaded.
  Manifest Load(const std::string& manifest, std::string_view shader) {
    const std::filesystem::path dir = folder_.path() / std::to_string(loads_++);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "m.toml") << manifest;
    std::ofstream(dir / "k.comp") << shader;
    return LoadManifest(dir / "m.toml");
  }
  // The load's error, or "(no error)".
  std::string LoadError(const std::string& manifest, std::string_view shader) {
    try {
      Load(manifest, shader);
    } catch (const ManifestError& e) {
      return e.message;
    }
    return "(no error)";
  }

 private:
  TempFolder folder_;
  int loads_ = 0;
};

// `text` with its first `from` replaced by `to`.
inline std::string With(std::string_view text, std::string_view from, std::string_view to) {
  std::string s(text);
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

}  // namespace csbench::testing
