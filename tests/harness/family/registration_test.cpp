// A family is registered whole or not at all: one that throws while it is described or
// registered is skipped, named once with why, and leaves none of its benchmarks behind, while the
// families around it register. No device needed.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "harness/base/error.hpp"
#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"
#include "harness/measure/selection.hpp"

namespace csbench {
namespace {

void Nothing(benchmark::State& state) {
  for (auto _ : state) {
  }
}

bool IsSelected(std::string_view name) {
  const std::vector<std::string>& names = SelectedNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

const SkippedFamily* SkippedEntry(std::string_view family) {
  for (const SkippedFamily& s : SkippedFamilies()) {
    if (s.family == family) return &s;
  }
  return nullptr;
}

TEST(FamilyRegistration, AFamilyThatThrowsHalfwayLeavesNothingAndIsNamedOnce) {
  const size_t offered = OfferedCount();
  const size_t selected = SelectedCount();
  EXPECT_FALSE(RegisterGuarded("halfway", [] {
    AddBenchmark("halfway/a/wg1x1/domain1x1", Nothing);
    AddBenchmark("halfway/b/wg1x1/domain1x1", Nothing)->UseManualTime();
    throw Error("row b has no workgroups");
  }));
  EXPECT_FALSE(IsSelected("halfway/a/wg1x1/domain1x1"));
  EXPECT_EQ(OfferedCount(), offered);
  EXPECT_EQ(SelectedCount(), selected);
  const SkippedFamily* skipped = SkippedEntry("halfway");
  ASSERT_NE(skipped, nullptr);
  EXPECT_NE(skipped->why.find("row b has no workgroups"), std::string::npos) << skipped->why;
  // Skipped once: a later step of the same family does not run, and is not named again.
  bool ran = false;
  EXPECT_FALSE(Guarded("halfway", [&] { ran = true; }));
  EXPECT_FALSE(ran);
  EXPECT_EQ(std::count_if(SkippedFamilies().begin(), SkippedFamilies().end(),
                          [](const SkippedFamily& s) { return s.family == "halfway"; }),
            1);
}

TEST(FamilyRegistration, AWholeFamilyRegistersAndANestedFailureTakesOnlyItsOwn) {
  EXPECT_TRUE(RegisterGuarded("outer", [] {
    AddBenchmark("outer/a/wg1x1/domain1x1", Nothing);
    EXPECT_FALSE(RegisterGuarded("inner", [] {
      AddBenchmark("inner/a/wg1x1/domain1x1", Nothing);
      throw std::runtime_error("inner's descriptor");
    }));
    AddBenchmark("outer/b/wg1x1/domain1x1", Nothing);
  }));
  EXPECT_TRUE(IsSelected("outer/a/wg1x1/domain1x1"));
  EXPECT_TRUE(IsSelected("outer/b/wg1x1/domain1x1"));
  EXPECT_FALSE(IsSelected("inner/a/wg1x1/domain1x1"));
  EXPECT_EQ(SkippedEntry("outer"), nullptr);
  EXPECT_NE(SkippedEntry("inner"), nullptr);
  // Each selected benchmark keeps its own record, in order, after the taken-back one.
  const std::vector<std::string>& names = SelectedNames();
  const size_t b = std::find(names.begin(), names.end(), "outer/b/wg1x1/domain1x1") - names.begin();
  ASSERT_NE(SelectedRecord(b), nullptr);
  EXPECT_EQ(SelectedRecord(b)->name(), "outer/b/wg1x1/domain1x1");
}

struct Row {
  std::string name;
  std::vector<Extent> workgroups;
};

const Family<Row>& ThrowingDescriptor() {
  static const Family<Row> family = []() -> Family<Row> { throw Error("the variant table names no kernel"); }();
  return family;
}

const Family<Row>& MisnamedDescriptor() {
  static const Family<Row> family{.name = "other_name", .variants = {{.name = "a", .workgroups = {{1}}}}};
  return family;
}

// Declaring calls no descriptor (one that throws would abort the program before main); asking
// for the family's benchmarks does, and a throw there skips the family.
TEST(FamilyRegistration, ADescriptorThatThrowsSkipsItsFamilyAtRegistration) {
  [[maybe_unused]] const Declaration declared = Declare("throwing_descriptor", &ThrowingDescriptor);
  const auto found = std::find_if(Declarations().begin(), Declarations().end(),
                                  [](const Declared& d) { return d.name == "throwing_descriptor"; });
  ASSERT_NE(found, Declarations().end());
  EXPECT_THROW(found->test_points(), Error);
  Suite suite;
  const std::string_view order[] = {"throwing_descriptor"};
  RegisterInOrder(suite, order);
  const SkippedFamily* skipped = SkippedEntry("throwing_descriptor");
  ASSERT_NE(skipped, nullptr);
  EXPECT_NE(skipped->why.find("names no kernel"), std::string::npos) << skipped->why;
  // DefaultSet passes over it instead of throwing out of main.
  EXPECT_NO_THROW(DefaultSet(Options{}, RunDevice{}));
}

TEST(FamilyRegistration, ADescriptorMustNameTheFamilyItIsDeclaredAs) {
  [[maybe_unused]] const Declaration declared = Declare("declared_name", &MisnamedDescriptor);
  const auto found = std::find_if(Declarations().begin(), Declarations().end(),
                                  [](const Declared& d) { return d.name == "declared_name"; });
  ASSERT_NE(found, Declarations().end());
  try {
    found->test_points();
    ADD_FAILURE() << "a misnamed descriptor was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("other_name"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace csbench
