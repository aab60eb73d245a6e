// The load-time notes from what a shader's instructions do (Resource::reads/writes) beside what a
// manifest says of each resource: an output no instruction writes, an input one writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/manifest/one_variant.hpp"
#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

class AccessNotes : public ::testing::Test {
 protected:
  // Loads kOneVariant over a shader whose main is `body` (x at binding 0 and out at 1, both
  // declared read and write, so that only the instructions differ).
  Manifest Load(std::string_view body) {
    const std::filesystem::path dir = folder_.path() / std::to_string(loads_++);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "m.toml") << testing::kOneVariant;
    std::ofstream(dir / "k.comp") << "#version 450\nlayout(local_size_x_id = 0) in;\n"
                                     "layout(std430, binding = 0) buffer X { float x[]; };\n"
                                     "layout(std430, binding = 1) buffer O { float out_[]; };\n"
                                     "void main() {\n  uint i = gl_GlobalInvocationID.x;\n"
                                  << body << "\n}\n";
    return LoadManifest(dir / "m.toml");
  }
  static bool Says(const Manifest& m, std::string_view what) {
    return std::any_of(m.notes.begin(), m.notes.end(),
                       [&](const std::string& note) { return note.find(what) != std::string::npos; });
  }
  testing::TempFolder folder_{"csbench_access_notes_test"};
  int loads_ = 0;
};

constexpr std::string_view kUnwritten = "an output without an init, but no instruction of its shader writes it";
constexpr std::string_view kWritten = "an input, but its shader has instructions that write it";

TEST_F(AccessNotes, AKernelThatReadsItsInputAndWritesItsOutputHasNone) {
  const Manifest m = Load("  if (i < x.length()) out_[i] = x[i];");
  EXPECT_FALSE(Says(m, kUnwritten));
  EXPECT_FALSE(Says(m, kWritten));
}

TEST_F(AccessNotes, AnOutputNoInstructionWritesIsNamed) {
  const Manifest m = Load("  float keep = x[i];");
  EXPECT_TRUE(Says(m, kUnwritten));
  EXPECT_TRUE(Says(m, "[[buffer]] 'out'"));
  EXPECT_FALSE(Says(m, kWritten));
}

TEST_F(AccessNotes, AnInputAnInstructionWritesIsNamed) {
  const Manifest m = Load("  out_[i] = x[i];\n  x[i] = 0.0;");
  EXPECT_TRUE(Says(m, kWritten));
  EXPECT_TRUE(Says(m, "[[buffer]] 'x'"));
  EXPECT_FALSE(Says(m, kUnwritten));
}

}  // namespace
}  // namespace csbench
