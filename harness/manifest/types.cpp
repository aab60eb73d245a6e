// The manifest's vocabulary: the element types a buffer may hold, the image formats, the
// features a variant may require and the variables init expressions take.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace {

// Every std430 scalar and vector GLSL has for a runtime array, by the names of
// GL_EXT_shader_explicit_arithmetic_types. Built once: clang before 16 cannot build a std::string
// in a constant expression.
const std::vector<ElementType>& ElementTypes() {
  static const std::vector<ElementType> types = [] {
    std::vector<ElementType> all;
    struct Family {
      const char* scalar;  // the scalar's name
      const char* vector;  // the vectors' prefix
      Scalar kind;
      uint32_t bytes;
    };
    for (const Family& f : {Family{"float", "vec", Scalar::kFloat, 4}, Family{"int", "ivec", Scalar::kInt, 4},
                            Family{"uint", "uvec", Scalar::kUint, 4}, Family{"float16_t", "f16vec", Scalar::kFloat, 2},
                            Family{"int16_t", "i16vec", Scalar::kInt, 2}, Family{"uint16_t", "u16vec", Scalar::kUint, 2},
                            Family{"int8_t", "i8vec", Scalar::kInt, 1}, Family{"uint8_t", "u8vec", Scalar::kUint, 1},
                            Family{"double", "dvec", Scalar::kFloat, 8}, Family{"int64_t", "i64vec", Scalar::kInt, 8},
                            Family{"uint64_t", "u64vec", Scalar::kUint, 8}}) {
      all.push_back({f.scalar, f.kind, 1, f.bytes});
      for (uint32_t n = 2; n <= 4; ++n) all.push_back({fmt::format("{}{}", f.vector, n), f.kind, n, f.bytes});
    }
    all.push_back({.glsl = "struct", .is_struct = true});
    return all;
  }();
  return types;
}

}  // namespace

namespace manifest_detail {

const std::vector<ImageFormat> kImageFormats = [] {
  using K = ImageFormat::Kind;
  return std::vector<ImageFormat>{
      {"r32f", 100, 1, 4, K::kFloat},       {"rg32f", 103, 2, 4, K::kFloat},     {"rgba32f", 109, 4, 4, K::kFloat},
      {"r16f", 76, 1, 2, K::kFloat},        {"rg16f", 83, 2, 2, K::kFloat},      {"rgba16f", 97, 4, 2, K::kFloat},
      {"rgba8", 37, 4, 1, K::kUnorm},       {"rgba8_snorm", 38, 4, 1, K::kSnorm}, {"rg8", 16, 2, 1, K::kUnorm},
      {"r8", 9, 1, 1, K::kUnorm},           {"rg8_snorm", 17, 2, 1, K::kSnorm},  {"r8_snorm", 10, 1, 1, K::kSnorm},
      {"rgba16", 91, 4, 2, K::kUnorm},      {"rg16", 77, 2, 2, K::kUnorm},       {"r16", 70, 1, 2, K::kUnorm},
      {"rgba16_snorm", 92, 4, 2, K::kSnorm}, {"rg16_snorm", 78, 2, 2, K::kSnorm}, {"r16_snorm", 71, 1, 2, K::kSnorm},
      {"r32ui", 98, 1, 4, K::kUint},        {"rg32ui", 101, 2, 4, K::kUint},     {"rgba32ui", 107, 4, 4, K::kUint},
      {"r32i", 99, 1, 4, K::kInt},          {"rg32i", 102, 2, 4, K::kInt},       {"rgba32i", 108, 4, 4, K::kInt},
      {"r16ui", 74, 1, 2, K::kUint},        {"rg16ui", 81, 2, 2, K::kUint},      {"rgba16ui", 95, 4, 2, K::kUint},
      {"r16i", 75, 1, 2, K::kInt},          {"rg16i", 82, 2, 2, K::kInt},        {"rgba16i", 96, 4, 2, K::kInt},
      {"r8ui", 13, 1, 1, K::kUint},         {"rg8ui", 20, 2, 1, K::kUint},       {"rgba8ui", 41, 4, 1, K::kUint},
      {"r8i", 14, 1, 1, K::kInt},           {"rg8i", 21, 2, 1, K::kInt},         {"rgba8i", 42, 4, 1, K::kInt},
  };
}();

}  // namespace manifest_detail

const ElementType* FindElementType(std::string_view glsl) {
  for (const ElementType& e : ElementTypes()) {
    if (e.glsl == glsl) return &e;
  }
  return nullptr;
}

const std::vector<std::string>& InitVariables() {
  static const std::vector<std::string> names = {"i",         "W",         "H", "WG_X",         "WG_Y", "SUBGROUP_SIZE",
                                                 "VENDOR_ID", "DEVICE_ID", "c", "csbench_rand", "D",    "WG_Z"};
  return names;
}

const std::vector<std::string>& ImageInitVariables() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = InitVariables();
    all.insert(all.end(), {"x", "y", "z"});
    return all;
  }();
  return names;
}

const std::vector<ImageFormat>& ImageFormats() { return kImageFormats; }

const ImageFormat* FindImageFormat(std::string_view glsl) {
  for (const ImageFormat& f : kImageFormats) {
    if (f.glsl == glsl) return &f;
  }
  return nullptr;
}

}  // namespace csbench
