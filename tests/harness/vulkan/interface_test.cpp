#include "harness/vulkan/interface.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <shaderc/shaderc.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/base/error.hpp"
#include "tests/harness/vulkan/spirv_names.hpp"

namespace csbench {
namespace {

// GLSL -> SPIR-V without optimisation, so that names and unused declarations stay.
std::vector<uint32_t> Compile(const std::string& glsl, shaderc_env_version vulkan = shaderc_env_version_vulkan_1_1) {
  return testing::CompileWithNames(glsl, vulkan);
}

ShaderInterface Reflect(const std::string& glsl, shaderc_env_version vulkan = shaderc_env_version_vulkan_1_1) {
  return ReflectInterface(Compile(glsl, vulkan));
}

std::string ErrorText(const std::vector<uint32_t>& words) {
  try {
    ReflectInterface(words);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

const Resource* At(const ShaderInterface& shader, uint32_t set, uint32_t binding) {
  for (const auto& r : shader.resources) {
    if (r.set == set && r.binding == binding) return &r;
  }
  return nullptr;
}

const SpecConstant* Constant(const ShaderInterface& shader, uint32_t id) {
  for (const auto& c : shader.constants) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// ---- A small assembler for modules glslang does not write, and for broken ones ------------------

uint32_t Word(std::string_view text, size_t i) {
  uint32_t w = 0;
  for (size_t b = 0; b < 4 && i * 4 + b < text.size(); ++b) w |= uint32_t(uint8_t(text[i * 4 + b])) << (8 * b);
  return w;
}

class Assembler {
 public:
  Assembler() : words_{0x07230203, 0x00010300, 0, 100, 0} {}
  Assembler& Op(uint32_t op, std::initializer_list<uint32_t> operands, std::string_view text = {}) {
    const size_t text_words = text.empty() ? 0 : text.size() / 4 + 1;
    words_.push_back(uint32_t(1 + operands.size() + text_words) << 16 | op);
    words_.insert(words_.end(), operands);
    for (size_t i = 0; i < text_words; ++i) words_.push_back(Word(text, i));
    return *this;
  }
  // The start every test module shares: Shader, GLSL450 memory model, main as entry point id 1.
  Assembler& ComputeHeader() { return Op(17, {1}).Op(14, {0, 1}).Op(15, {5, 1}, "main"); }
  std::vector<uint32_t> words() const { return words_; }

 private:
  std::vector<uint32_t> words_;
};

// ---- The workgroup size ----------------------------------------------------------------------

TEST(InterfaceLocalSize, Literal) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64, local_size_y = 2, local_size_z = 3) in;
void main() {}
)");
  EXPECT_EQ(shader.entry_point, "main");
  EXPECT_EQ(shader.local_size.literal, (std::array<uint32_t, 3>{64, 2, 3}));
  for (const auto& id : shader.local_size.constant_id) EXPECT_FALSE(id.has_value());
  EXPECT_TRUE(shader.constants.empty());
  EXPECT_TRUE(Has(shader.capabilities, "Shader"));
}

TEST(InterfaceLocalSize, XFromConstantThreeAndLiteralY) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x_id = 3, local_size_y = 8) in;
void main() {}
)");
  EXPECT_EQ(shader.local_size.literal, (std::array<uint32_t, 3>{1, 8, 1}));
  EXPECT_EQ(shader.local_size.constant_id[0], 3u);
  EXPECT_FALSE(shader.local_size.constant_id[1].has_value());
  EXPECT_FALSE(shader.local_size.constant_id[2].has_value());
  // The dimension's constant is one the pipeline can set: it is listed.
  const SpecConstant* x = Constant(shader, 3);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->type, (ScalarType{ScalarKind::kUint, 32}));
  EXPECT_EQ(x->default_bits, 1u);
}

TEST(InterfaceLocalSize, XAndYFromConstantsZeroAndOne) {
  for (auto vulkan : {shaderc_env_version_vulkan_1_1, shaderc_env_version_vulkan_1_3}) {
    SCOPED_TRACE(vulkan);
    auto shader = Reflect(R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 4) in;
layout(constant_id = 1) const uint kHeight = 16;
void main() {}
)",
                          vulkan);
    EXPECT_EQ(shader.local_size.constant_id[0], 0u);
    EXPECT_EQ(shader.local_size.constant_id[1], 1u);
    EXPECT_FALSE(shader.local_size.constant_id[2].has_value());
    // glslang makes the y dimension a constant of its own with SpecId 1 and default 1, beside
    // kHeight: the size the module has unspecialised is 1, the constant's default is kHeight's.
    EXPECT_EQ(shader.local_size.literal, (std::array<uint32_t, 3>{1, 1, 4}));
    ASSERT_EQ(shader.constants.size(), 2u);
    EXPECT_EQ(shader.constants[0].id, 0u);
    EXPECT_TRUE(shader.constants[0].names.empty());
    EXPECT_EQ(shader.constants[1].id, 1u);
    EXPECT_EQ(shader.constants[1].names, std::vector<std::string>{"kHeight"});
    EXPECT_EQ(shader.constants[1].default_bits, 16u);
  }
}

TEST(InterfaceLocalSize, ExecutionModeIdTakesConstantsAndSpecConstants) {
  // OpExecutionModeId LocalSizeId: x a spec constant (SpecId 5, default 32), y and z constants.
  auto words = Assembler()
                   .ComputeHeader()
                   .Op(331, {1, 38, 11, 12, 13})
                   .Op(71, {11, 1, 5})    // OpDecorate %11 SpecId 5
                   .Op(21, {10, 32, 0})   // %10 = uint
                   .Op(50, {10, 11, 32})  // %11 = OpSpecConstant 32
                   .Op(43, {10, 12, 2})   // %12 = OpConstant 2
                   .Op(43, {10, 13, 1})   // %13 = OpConstant 1
                   .words();
  auto shader = ReflectInterface(words);
  EXPECT_EQ(shader.local_size.literal, (std::array<uint32_t, 3>{32, 2, 1}));
  EXPECT_EQ(shader.local_size.constant_id[0], 5u);
  EXPECT_FALSE(shader.local_size.constant_id[1].has_value());
  EXPECT_FALSE(shader.has_names);
}

TEST(InterfaceLocalSize, WorkgroupSizeOverridesTheExecutionMode) {
  auto words = Assembler()
                   .ComputeHeader()
                   .Op(16, {1, 17, 4, 4, 4})  // LocalSize 4 4 4
                   .Op(71, {20, 11, 25})      // %20 BuiltIn WorkgroupSize
                   .Op(21, {10, 32, 0})
                   .Op(23, {14, 10, 3})  // uvec3
                   .Op(43, {10, 11, 128})
                   .Op(43, {10, 12, 1})
                   .Op(44, {14, 20, 11, 12, 12})  // %20 = uvec3(128, 1, 1)
                   .words();
  auto shader = ReflectInterface(words);
  EXPECT_EQ(shader.local_size.literal, (std::array<uint32_t, 3>{128, 1, 1}));
}

// ---- Specialization constants
// --------------------------------------------------------------------

TEST(InterfaceConstants, TypesDefaultsAndNames) {
  auto shader = Reflect(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const bool kFlag = true;
layout(constant_id = 1) const int kInt = -5;
layout(constant_id = 2) const uint kUint = 7u;
layout(constant_id = 3) const float kFloat = 1.5;
layout(constant_id = 4) const int16_t kShort = -2s;
layout(constant_id = 5) const uint8_t kByte = uint8_t(200);
layout(constant_id = 6) const double kDouble = 2.5lf;
layout(constant_id = 7) const int64_t kLong = -3l;
layout(constant_id = 8) const bool kOff = false;
layout(std430, binding = 0) buffer Out { double values[]; };
void main() {
  values[0] = double(kFlag) + double(kInt) + double(kUint) + double(kFloat) + double(kShort) + double(kByte) +
              kDouble + double(kLong) + double(kOff);
}
)");
  ASSERT_EQ(shader.constants.size(), 9u);
  struct Expected {
    uint32_t id;
    const char* name;
    ScalarType type;
    uint64_t bits;
  };
  const Expected expected[] = {
      {0, "kFlag", {ScalarKind::kBool, 32}, 1},
      {1, "kInt", {ScalarKind::kInt, 32}, 0xFFFFFFFBu},
      {2, "kUint", {ScalarKind::kUint, 32}, 7},
      {3, "kFloat", {ScalarKind::kFloat, 32}, 0x3FC00000u},
      {4, "kShort", {ScalarKind::kInt, 16}, 0xFFFEu},
      {5, "kByte", {ScalarKind::kUint, 8}, 200},
      {6, "kDouble", {ScalarKind::kFloat, 64}, 0x4004000000000000u},
      {7, "kLong", {ScalarKind::kInt, 64}, 0xFFFFFFFFFFFFFFFDu},
      {8, "kOff", {ScalarKind::kBool, 32}, 0},
  };
  for (size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE(expected[i].name);
    const SpecConstant& c = shader.constants[i];
    EXPECT_EQ(c.id, expected[i].id);
    EXPECT_EQ(c.names, std::vector<std::string>{expected[i].name});
    EXPECT_EQ(c.type, expected[i].type);
    EXPECT_EQ(c.default_bits, expected[i].bits);
  }
  EXPECT_TRUE(Has(shader.capabilities, "Float64"));
  EXPECT_TRUE(Has(shader.capabilities, "Int64"));
  EXPECT_TRUE(Has(shader.capabilities, "Int16"));
  EXPECT_TRUE(Has(shader.capabilities, "Int8"));
}

TEST(InterfaceConstants, OneConstantUsedForTheGroupSizeAnArrayAndAValue) {
  // Vulkan 1.3's SPIR-V 1.6 takes the size by OpExecutionModeId; glslang puts the unnamed alias
  // first there, after the named constant for 1.1.
  for (auto vulkan : {shaderc_env_version_vulkan_1_1, shaderc_env_version_vulkan_1_3}) {
    SCOPED_TRACE(vulkan);
    auto shader = Reflect(R"(#version 450
layout(local_size_x_id = 9) in;
layout(constant_id = 9) const uint kGroup = 64;
shared float tile[kGroup];
layout(std430, binding = 0) buffer Out { float values[]; };
void main() {
  tile[gl_LocalInvocationID.x] = float(kGroup);
  barrier();
  values[gl_GlobalInvocationID.x] = tile[(gl_LocalInvocationID.x + 1) % kGroup];
}
)",
                          vulkan);
    ASSERT_EQ(shader.constants.size(), 1u);
    EXPECT_EQ(shader.constants[0].id, 9u);
    EXPECT_EQ(shader.constants[0].names, std::vector<std::string>{"kGroup"});
    EXPECT_EQ(shader.constants[0].default_bits, 64u);
    EXPECT_EQ(shader.local_size.constant_id[0], 9u);
    // The dimension's own constant has default 1: unspecialised, the group is 1 wide.
    EXPECT_EQ(shader.local_size.literal[0], 1u);
    const Resource* out = At(shader, 0, 0);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->block, "Out");
    EXPECT_EQ(out->variable, "");  // a block without an instance name
  }
}

TEST(InterfaceConstants, SameSpecIdOnTwoConstantsIsOneEntryWithBothNames) {
  auto words = Assembler()
                   .ComputeHeader()
                   .Op(16, {1, 17, 1, 1, 1})
                   .Op(5, {11}, "kCount")
                   .Op(5, {12}, "kAlias")
                   .Op(71, {11, 1, 2})
                   .Op(71, {12, 1, 2})
                   .Op(21, {10, 32, 1})
                   .Op(50, {10, 11, 0xFFFFFFFF})  // int -1
                   .Op(50, {10, 12, 0xFFFFFFFF})
                   .words();
  auto shader = ReflectInterface(words);
  ASSERT_EQ(shader.constants.size(), 1u);
  EXPECT_EQ(shader.constants[0].names, (std::vector<std::string>{"kCount", "kAlias"}));
  EXPECT_EQ(shader.constants[0].default_bits, 0xFFFFFFFFu);
  EXPECT_TRUE(shader.has_names);
}

TEST(InterfaceConstants, SpecConstantSizedArrayHasTheDefaultLengthAndTheConstant) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 1) in;
layout(constant_id = 4) const int kTaps = 5;
layout(std140, binding = 0) uniform Weights { vec4 w[kTaps]; };
layout(std430, binding = 1) buffer Out { float values[]; };
void main() { values[0] = w[0].x; }
)");
  const Resource* weights = At(shader, 0, 0);
  ASSERT_NE(weights, nullptr);
  ASSERT_EQ(weights->type.members.size(), 1u);
  const TypeLayout& w = weights->type.members[0].type;
  EXPECT_EQ(w.kind, TypeLayout::Kind::kArray);
  EXPECT_EQ(w.length, 5u);
  EXPECT_EQ(w.length_constant_id, 4u);
  EXPECT_EQ(w.size, 80u);
}

// ---- Buffers and their layouts ---------------------------------------------------------------

TEST(InterfaceBuffers, Vec3ArrayHasAStrideOf16) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Points { vec3 points[]; } pts;
void main() { pts.points[gl_GlobalInvocationID.x] += vec3(1); }
)");
  ASSERT_EQ(shader.resources.size(), 1u);
  const Resource& r = shader.resources[0];
  EXPECT_EQ(r.kind, ResourceKind::kStorageBuffer);
  EXPECT_EQ(KindName(r.kind), "storage buffer");
  EXPECT_EQ(r.block, "Points");
  EXPECT_EQ(r.variable, "pts");
  EXPECT_EQ(r.count, 1u);
  EXPECT_FALSE(r.readonly);
  EXPECT_FALSE(r.writeonly);
  ASSERT_EQ(r.type.members.size(), 1u);
  const Member& points = r.type.members[0];
  EXPECT_EQ(points.name, "points");
  EXPECT_EQ(points.type.kind, TypeLayout::Kind::kRuntimeArray);
  EXPECT_EQ(points.type.array_stride, 16u);
  EXPECT_EQ(points.type.size, 0u);
  EXPECT_EQ(points.type.glsl, "vec3[]");
  ASSERT_NE(points.type.element, nullptr);
  EXPECT_EQ(points.type.element->glsl, "vec3");
  EXPECT_EQ(points.type.element->components, 3u);
  EXPECT_EQ(points.type.element->size, 12u);
}

TEST(InterfaceBuffers, Float16AndUint8Elements) {
  auto shader = Reflect(R"(#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Half { float16_t halves[]; };
layout(std430, binding = 1) readonly buffer Bytes { uint8_t bytes[]; };
layout(std430, binding = 2) writeonly buffer Packed { f16vec2 pairs[2]; i8vec4 quads[]; } packed_out;
layout(std430, binding = 3) buffer Wide { u64vec2 wide[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  packed_out.quads[i] = i8vec4(int8_t(bytes[i]));
  wide[i] = u64vec2(uint64_t(halves[i]));
}
)");
  ASSERT_EQ(shader.resources.size(), 4u);
  const auto& half = shader.resources[0].type.members.at(0).type;
  EXPECT_EQ(half.array_stride, 2u);
  ASSERT_NE(half.element, nullptr);
  EXPECT_EQ(half.element->glsl, "float16_t");
  EXPECT_EQ(half.element->scalar, (ScalarType{ScalarKind::kFloat, 16}));
  EXPECT_TRUE(shader.resources[0].readonly);

  const auto& bytes = shader.resources[1].type.members.at(0).type;
  EXPECT_EQ(bytes.array_stride, 1u);
  EXPECT_EQ(bytes.element->glsl, "uint8_t");
  EXPECT_EQ(bytes.element->scalar, (ScalarType{ScalarKind::kUint, 8}));

  const Resource& packed = shader.resources[2];
  EXPECT_TRUE(packed.writeonly);
  EXPECT_FALSE(packed.readonly);
  ASSERT_EQ(packed.type.members.size(), 2u);
  EXPECT_EQ(packed.type.members[0].name, "pairs");
  EXPECT_EQ(packed.type.members[0].type.glsl, "f16vec2[2]");
  EXPECT_EQ(packed.type.members[0].type.array_stride, 4u);
  EXPECT_EQ(packed.type.members[0].type.size, 8u);
  EXPECT_EQ(packed.type.members[1].name, "quads");
  EXPECT_EQ(packed.type.members[1].offset, 8u);
  EXPECT_EQ(packed.type.members[1].type.glsl, "i8vec4[]");
  EXPECT_EQ(packed.type.members[1].type.array_stride, 4u);
  EXPECT_EQ(packed.type.members[1].type.element->scalar, (ScalarType{ScalarKind::kInt, 8}));

  const auto& wide = shader.resources[3].type.members.at(0).type;
  EXPECT_EQ(wide.element->glsl, "u64vec2");
  EXPECT_EQ(wide.array_stride, 16u);

  EXPECT_TRUE(Has(shader.capabilities, "StorageBuffer16BitAccess"));
  EXPECT_TRUE(Has(shader.capabilities, "StorageBuffer8BitAccess"));
}

TEST(InterfaceBuffers, StructArrayMembersOffsetsAndStride) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
struct Particle { vec4 pos; vec4 vel; float mass; };
layout(std430, set = 0, binding = 0) buffer Particles { uint count; Particle particles[]; };
void main() { particles[gl_GlobalInvocationID.x].pos += particles[gl_GlobalInvocationID.x].vel; }
)");
  ASSERT_EQ(shader.resources.size(), 1u);
  const TypeLayout& block = shader.resources[0].type;
  EXPECT_EQ(block.kind, TypeLayout::Kind::kStruct);
  EXPECT_EQ(block.glsl, "Particles");
  ASSERT_EQ(block.members.size(), 2u);
  EXPECT_EQ(block.members[0].name, "count");
  EXPECT_EQ(block.members[0].offset, 0u);
  EXPECT_EQ(block.members[1].name, "particles");
  EXPECT_EQ(block.members[1].offset, 16u);  // the struct's alignment is vec4's
  const TypeLayout& array = block.members[1].type;
  EXPECT_EQ(array.kind, TypeLayout::Kind::kRuntimeArray);
  EXPECT_EQ(array.array_stride, 48u);
  EXPECT_EQ(array.glsl, "Particle[]");
  const TypeLayout& particle = *array.element;
  EXPECT_EQ(particle.glsl, "Particle");
  ASSERT_EQ(particle.members.size(), 3u);
  EXPECT_EQ(particle.members[0].name, "pos");
  EXPECT_EQ(particle.members[1].name, "vel");
  EXPECT_EQ(particle.members[2].name, "mass");
  EXPECT_EQ(particle.members[0].offset, 0u);
  EXPECT_EQ(particle.members[1].offset, 16u);
  EXPECT_EQ(particle.members[2].offset, 32u);
  EXPECT_EQ(particle.members[2].type.glsl, "float");
  EXPECT_EQ(particle.size, 36u);
}

TEST(InterfaceBuffers, BlockWithoutARuntimeArray) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 5) buffer Total { uint total; };
void main() { atomicAdd(total, 1u); }
)");
  ASSERT_EQ(shader.resources.size(), 1u);
  const Resource& r = shader.resources[0];
  EXPECT_EQ(r.binding, 5u);
  EXPECT_EQ(r.block, "Total");
  ASSERT_EQ(r.type.members.size(), 1u);
  EXPECT_EQ(r.type.members[0].type.kind, TypeLayout::Kind::kScalar);
  EXPECT_EQ(r.type.members[0].type.glsl, "uint");
  EXPECT_EQ(r.type.size, 4u);
}

TEST(InterfaceBuffers, UniformBufferStd140) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std140, binding = 1) uniform Params { vec3 dir; float len; float weights[4]; mat4 m; layout(row_major) mat2x3 r; } params;
layout(std430, binding = 0) buffer Out { float values[]; };
void main() { values[0] = params.dir.x * params.len * params.weights[1] * params.m[0][0] * params.r[0][0]; }
)");
  const Resource* u = At(shader, 0, 1);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, ResourceKind::kUniformBuffer);
  EXPECT_EQ(KindName(u->kind), "uniform buffer");
  EXPECT_TRUE(u->readonly);
  const auto& m = u->type.members;
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0].offset, 0u);
  EXPECT_EQ(m[0].type.glsl, "vec3");
  EXPECT_EQ(m[1].offset, 12u);  // a float packs into vec3's last 4 bytes
  EXPECT_EQ(m[2].offset, 16u);
  EXPECT_EQ(m[2].type.kind, TypeLayout::Kind::kArray);
  EXPECT_EQ(m[2].type.length, 4u);
  EXPECT_FALSE(m[2].type.length_constant_id.has_value());
  EXPECT_EQ(m[2].type.array_stride,
            16u);  // std140 rounds an array's stride up to 16
  EXPECT_EQ(m[2].type.size, 64u);
  EXPECT_EQ(m[2].type.glsl, "float[4]");
  EXPECT_EQ(m[3].offset, 80u);
  EXPECT_EQ(m[3].type.kind, TypeLayout::Kind::kMatrix);
  EXPECT_EQ(m[3].type.glsl, "mat4");
  EXPECT_EQ(m[3].type.matrix_stride, 16u);
  EXPECT_FALSE(m[3].type.row_major);
  EXPECT_EQ(m[3].type.size, 64u);
  // mat2x3: 2 columns of 3 rows; row-major, it is stored as 3 rows of 16 bytes.
  EXPECT_EQ(m[4].offset, 144u);
  EXPECT_EQ(m[4].type.glsl, "mat2x3");
  EXPECT_EQ(m[4].type.columns, 2u);
  EXPECT_EQ(m[4].type.components, 3u);
  EXPECT_TRUE(m[4].type.row_major);
  EXPECT_EQ(m[4].type.matrix_stride, 16u);
  EXPECT_EQ(m[4].type.size, 48u);
  EXPECT_EQ(u->type.size, 192u);
}

TEST(InterfaceBuffers, OldStyleBufferBlockIsAStorageBuffer) {
  // Vulkan 1.0's SPIR-V 1.0 has no StorageBuffer class: a buffer is Uniform + BufferBlock.
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float data[]; };
layout(std140, binding = 1) uniform Params { float scale; };
void main() { data[gl_GlobalInvocationID.x] *= scale; }
)",
                        shaderc_env_version_vulkan_1_0);
  ASSERT_EQ(shader.resources.size(), 2u);
  EXPECT_EQ(shader.resources[0].kind, ResourceKind::kStorageBuffer);
  EXPECT_EQ(shader.resources[1].kind, ResourceKind::kUniformBuffer);
}

TEST(InterfaceBuffers, ReadonlyAndWriteonly) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float a[]; };
layout(std430, binding = 1) writeonly buffer Out { float b[]; };
layout(std430, binding = 2) buffer Both { float c[]; };
layout(std430, binding = 3) buffer Mixed { readonly float d; float e[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] + c[i] + d; c[i] = e[i]; }
)");
  ASSERT_EQ(shader.resources.size(), 4u);
  EXPECT_TRUE(shader.resources[0].readonly);
  EXPECT_FALSE(shader.resources[0].writeonly);
  EXPECT_FALSE(shader.resources[1].readonly);
  EXPECT_TRUE(shader.resources[1].writeonly);
  EXPECT_FALSE(shader.resources[2].readonly);
  EXPECT_FALSE(shader.resources[2].writeonly);
  // One readonly member does not make the block read-only.
  EXPECT_FALSE(shader.resources[3].readonly);
}

TEST(InterfaceBuffers, ArraysOfBlocksAreOneBindingOfSeveralDescriptors) {
  auto shader = Reflect(R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float v[]; } data[4];
layout(std430, binding = 1) buffer Any { float w[]; } any_of[];
void main() { data[1].v[0] = any_of[nonuniformEXT(gl_GlobalInvocationID.x)].w[0]; }
)");
  ASSERT_EQ(shader.resources.size(), 2u);
  EXPECT_EQ(shader.resources[0].count, 4u);
  EXPECT_EQ(shader.resources[0].block, "Data");
  EXPECT_EQ(shader.resources[0].variable, "data");
  EXPECT_EQ(shader.resources[0].type.members.at(0).name, "v");
  EXPECT_EQ(shader.resources[1].count, 0u);
  EXPECT_EQ(shader.resources[1].kind, ResourceKind::kStorageBuffer);
}

TEST(InterfaceBuffers, SetsAndBindingsInOrder) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 2, binding = 3) buffer C { float c[]; };
layout(std430, set = 1, binding = 0) buffer B { float b[]; };
layout(std430, set = 0, binding = 7) buffer A { float a[]; };
layout(std430, set = 1, binding = 1) buffer D { float d[]; };
void main() { a[0] = b[0] + c[0] + d[0]; }
)");
  ASSERT_EQ(shader.resources.size(), 4u);
  EXPECT_EQ(shader.resources[0].block, "A");
  EXPECT_EQ(shader.resources[1].block, "B");
  EXPECT_EQ(shader.resources[1].set, 1u);
  EXPECT_EQ(shader.resources[2].block, "D");
  EXPECT_EQ(shader.resources[2].binding, 1u);
  EXPECT_EQ(shader.resources[3].block, "C");
  EXPECT_EQ(shader.resources[3].set, 2u);
  EXPECT_EQ(shader.resources[3].binding, 3u);
}

// ---- Push constants --------------------------------------------------------------------------

TEST(InterfacePush, MembersOffsetsAndSize) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint n; float scale; vec2 offset; vec3 tint; } pc;
layout(std430, binding = 0) buffer Out { float values[]; };
void main() { values[0] = float(pc.n) * pc.scale + pc.offset.x + pc.tint.z; }
)");
  ASSERT_TRUE(shader.push.has_value());
  EXPECT_EQ(shader.push->block, "Push");
  EXPECT_EQ(shader.push->variable, "pc");
  ASSERT_EQ(shader.push->members.size(), 4u);
  EXPECT_EQ(shader.push->members[0].name, "n");
  EXPECT_EQ(shader.push->members[1].offset, 4u);
  EXPECT_EQ(shader.push->members[2].offset, 8u);
  EXPECT_EQ(shader.push->members[2].type.glsl, "vec2");
  EXPECT_EQ(shader.push->members[3].offset, 16u);
  EXPECT_EQ(shader.push->size, 28u);  // vec3 ends 12 bytes after 16
  // A push block is not a descriptor.
  EXPECT_EQ(shader.resources.size(), 1u);
}

TEST(InterfacePush, NoneDeclared) {
  auto shader = Reflect("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  EXPECT_FALSE(shader.push.has_value());
  EXPECT_TRUE(shader.resources.empty());
}

// ---- Images and samplers ---------------------------------------------------------------------

TEST(InterfaceImages, StorageSampledCombinedSeparateAndTexelBuffers) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D out_image;
layout(set = 0, binding = 1) uniform sampler2D combined;
layout(set = 0, binding = 2) uniform texture2D tex;
layout(set = 0, binding = 3) uniform sampler samp;
layout(set = 0, binding = 4, r32f) uniform readonly imageBuffer texels;
layout(set = 0, binding = 5) uniform textureBuffer uniform_texels;
layout(set = 1, binding = 0, rgba32ui) uniform readonly uimage2DArray layers;
layout(set = 1, binding = 1) uniform isampler3D volume;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 c = texture(combined, vec2(p)) + texture(sampler2D(tex, samp), vec2(p)) + imageLoad(texels, p.x) +
           texelFetch(uniform_texels, p.x) + vec4(imageLoad(layers, ivec3(p, 0))) + vec4(texture(volume, vec3(0)));
  imageStore(out_image, p, c);
}
)");
  ASSERT_EQ(shader.resources.size(), 8u);
  const Resource* image = At(shader, 0, 0);
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(image->kind, ResourceKind::kStorageImage);
  EXPECT_EQ(KindName(image->kind), "storage image");
  EXPECT_EQ(image->image_dim, "2D");
  EXPECT_EQ(image->image_format, "rgba8");
  EXPECT_FALSE(image->arrayed);
  EXPECT_TRUE(image->writeonly);
  EXPECT_FALSE(image->readonly);
  EXPECT_EQ(image->image_sampled, (ScalarType{ScalarKind::kFloat, 32}));
  EXPECT_EQ(image->type.glsl, "image2D");
  EXPECT_EQ(image->variable, "out_image");

  const Resource* combined = At(shader, 0, 1);
  EXPECT_EQ(combined->kind, ResourceKind::kCombinedImageSampler);
  EXPECT_EQ(KindName(combined->kind), "combined image sampler");
  EXPECT_EQ(combined->image_dim, "2D");
  EXPECT_EQ(combined->image_format, "unknown");
  EXPECT_EQ(combined->type.glsl, "sampler2D");
  EXPECT_TRUE(combined->readonly);

  EXPECT_EQ(At(shader, 0, 2)->kind, ResourceKind::kSampledImage);
  EXPECT_EQ(At(shader, 0, 2)->type.glsl, "texture2D");
  EXPECT_EQ(At(shader, 0, 3)->kind, ResourceKind::kSampler);
  EXPECT_EQ(At(shader, 0, 3)->type.glsl, "sampler");

  const Resource* texels = At(shader, 0, 4);
  EXPECT_EQ(texels->kind, ResourceKind::kStorageTexelBuffer);
  EXPECT_EQ(texels->image_dim, "Buffer");
  EXPECT_EQ(texels->image_format, "r32f");
  EXPECT_TRUE(texels->readonly);
  EXPECT_EQ(texels->type.glsl, "imageBuffer");
  EXPECT_EQ(At(shader, 0, 5)->kind, ResourceKind::kUniformTexelBuffer);

  const Resource* layers = At(shader, 1, 0);
  EXPECT_EQ(layers->kind, ResourceKind::kStorageImage);
  EXPECT_TRUE(layers->arrayed);
  EXPECT_EQ(layers->image_format, "rgba32ui");
  EXPECT_EQ(layers->image_sampled, (ScalarType{ScalarKind::kUint, 32}));
  EXPECT_EQ(layers->type.glsl, "uimage2DArray");

  const Resource* volume = At(shader, 1, 1);
  EXPECT_EQ(volume->kind, ResourceKind::kCombinedImageSampler);
  EXPECT_EQ(volume->image_dim, "3D");
  EXPECT_EQ(volume->image_sampled.kind, ScalarKind::kInt);
  EXPECT_EQ(volume->type.glsl, "isampler3D");
}

TEST(InterfaceImages, SamplerBufferIsAUniformTexelBufferAndShadowSamplersHaveDepth) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 1) in;
layout(binding = 0) uniform samplerBuffer texels;
layout(binding = 1) uniform sampler2DArrayShadow shadows;
layout(std430, binding = 2) buffer Out { vec4 v[]; };
void main() { v[0] = texelFetch(texels, 0) + vec4(texture(shadows, vec4(0))); }
)");
  ASSERT_EQ(shader.resources.size(), 3u);
  EXPECT_EQ(shader.resources[0].kind, ResourceKind::kUniformTexelBuffer);
  EXPECT_EQ(KindName(shader.resources[0].kind), "uniform texel buffer");
  EXPECT_EQ(shader.resources[0].image_dim, "Buffer");
  EXPECT_EQ(shader.resources[0].type.glsl, "samplerBuffer");
  EXPECT_TRUE(shader.resources[0].readonly);
  EXPECT_EQ(shader.resources[1].kind, ResourceKind::kCombinedImageSampler);
  EXPECT_TRUE(shader.resources[1].depth);
  EXPECT_TRUE(shader.resources[1].arrayed);
  EXPECT_FALSE(shader.resources[1].multisampled);
  EXPECT_EQ(shader.resources[1].type.glsl, "sampler2DArrayShadow");
}

TEST(InterfaceImages, ArrayOfStorageImages) {
  auto shader = Reflect(R"(#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 2, r32f) uniform image2D planes[3];
void main() { imageStore(planes[1], ivec2(0), vec4(1)); }
)");
  ASSERT_EQ(shader.resources.size(), 1u);
  EXPECT_EQ(shader.resources[0].count, 3u);
  EXPECT_EQ(shader.resources[0].kind, ResourceKind::kStorageImage);
  EXPECT_EQ(shader.resources[0].image_format, "r32f");
}

// ---- Names -----------------------------------------------------------------------------------

constexpr const char* kNamed = R"(#version 450
layout(local_size_x = 64) in;
layout(constant_id = 2) const float kScale = 2.0;
layout(std430, binding = 0) buffer Data { float values[]; } data;
void main() { data.values[gl_GlobalInvocationID.x] *= kScale; }
)";

TEST(InterfaceNames, PresentInAnUnoptimisedModule) {
  auto shader = Reflect(kNamed);
  EXPECT_TRUE(shader.has_names);
  EXPECT_EQ(shader.resources.at(0).block, "Data");
}

TEST(InterfaceNames, StrippedModuleStillHasItsLayoutAndConstants) {
  auto shader = ReflectInterface(testing::StripNames(Compile(kNamed)));
  EXPECT_FALSE(shader.has_names);
  EXPECT_EQ(shader.entry_point,
            "main");  // the entry point's name is not debug information
  ASSERT_EQ(shader.resources.size(), 1u);
  EXPECT_EQ(shader.resources[0].block, "");
  EXPECT_EQ(shader.resources[0].variable, "");
  EXPECT_EQ(shader.resources[0].type.members.at(0).name, "_m0");
  EXPECT_TRUE(shader.resources[0].type.members.at(0).positional);
  EXPECT_EQ(shader.resources[0].type.members.at(0).type.array_stride, 4u);
  ASSERT_EQ(shader.constants.size(), 1u);
  EXPECT_EQ(shader.constants[0].id, 2u);
  EXPECT_TRUE(shader.constants[0].names.empty());
  EXPECT_EQ(shader.constants[0].default_bits, 0x40000000u);
}

// A struct array, a nested struct and a uniform block, for the names of members.
constexpr const char* kStructs = R"(#version 450
layout(local_size_x = 64) in;
struct Inner { float k; uint id; };
struct Particle { vec3 pos; float mass; Inner inner; };
layout(std430, binding = 0) buffer Particles { uint count; Particle particles[]; };
layout(std140, binding = 1) uniform Params { float dt; vec4 gravity; } params;
void main() { particles[gl_GlobalInvocationID.x].mass *= params.dt + float(count); }
)";

// The names of `members` and whether each is positional: "pos mass inner" / "_m0* _m1*".
std::string NamesOf(const std::vector<Member>& members) {
  std::string names;
  for (const Member& m : members) names += (names.empty() ? "" : " ") + m.name + (m.positional ? "*" : "");
  return names;
}

TEST(InterfaceNames, MembersKeepTheNamesTheModuleGives) {
  const ShaderInterface shader = Reflect(kStructs);
  const std::vector<Member>& block = shader.resources.at(0).type.members;
  EXPECT_EQ(NamesOf(block), "count particles");
  const TypeLayout& particle = *block.at(1).type.element;
  EXPECT_EQ(NamesOf(particle.members), "pos mass inner");
  EXPECT_EQ(NamesOf(particle.members.at(2).type.members), "k id");
  EXPECT_EQ(NamesOf(shader.resources.at(1).type.members), "dt gravity");
  EXPECT_FALSE(MemberNameClash(block, "the block"));
}

TEST(InterfaceNames, MembersWithoutNamesAreNamedByTheirPositions) {
  const ShaderInterface shader = ReflectInterface(testing::StripNames(Compile(kStructs)));
  const std::vector<Member>& block = shader.resources.at(0).type.members;
  // Each struct numbers its own members from 0, in declaration order; offsets are the SPIR-V's.
  EXPECT_EQ(NamesOf(block), "_m0* _m1*");
  const TypeLayout& particle = *block.at(1).type.element;
  EXPECT_EQ(particle.glsl, "");
  EXPECT_EQ(NamesOf(particle.members), "_m0* _m1* _m2*");
  EXPECT_EQ(particle.members.at(1).offset, 12u);
  EXPECT_EQ(NamesOf(particle.members.at(2).type.members), "_m0* _m1*");
  EXPECT_EQ(particle.members.at(2).type.members.at(1).offset, 4u);
  EXPECT_EQ(NamesOf(shader.resources.at(1).type.members), "_m0* _m1*");
  EXPECT_EQ(shader.resources.at(1).type.members.at(1).offset, 16u);
  EXPECT_FALSE(MemberNameClash(block, "the block"));
}

TEST(InterfaceNames, OnlyTheUnnamedMembersOfAPartlyNamedModuleAreNamedByPosition) {
  const ShaderInterface shader =
      ReflectInterface(testing::RenameMembers(Compile(kStructs), {{"mass", ""}, {"id", ""}}));
  const TypeLayout& particle = *shader.resources.at(0).type.members.at(1).type.element;
  EXPECT_EQ(NamesOf(particle.members), "pos _m1* inner");
  EXPECT_EQ(NamesOf(particle.members.at(2).type.members), "k _m1*");
  EXPECT_FALSE(MemberNameClash(shader.resources.at(0).type.members, "the block"));
}

TEST(InterfaceNames, APositionalNameThatRepeatsARealOneIsAClash) {
  // Particle's member 0 is named "_m1" by the shader while member 1 has no name: both are _m1.
  const ShaderInterface shader =
      ReflectInterface(testing::RenameMembers(Compile(kStructs), {{"pos", "_m1"}, {"mass", ""}}));
  const std::vector<Member>& block = shader.resources.at(0).type.members;
  EXPECT_EQ(NamesOf(block.at(1).type.element->members), "_m1 _m1* inner");
  EXPECT_EQ(MemberNameClash(block, "binding 0").value_or("(none)"),
            "binding 0, member particles: members 0 and 1 are both named _m1 (member 1 has no name in the SPIR-V "
            "and is named by its position; the other's name is the shader's own): no name may stand for two "
            "members");
  // In a nested struct, and where the module names two members alike.
  const ShaderInterface nested =
      ReflectInterface(testing::RenameMembers(Compile(kStructs), {{"k", "_m1"}, {"id", ""}}));
  EXPECT_NE(MemberNameClash(nested.resources.at(0).type.members, "binding 0")
                .value_or("(none)")
                .find("binding 0, member particles, member inner: members 0 and 1 are both named _m1"),
            std::string::npos);
  const ShaderInterface twice = ReflectInterface(testing::RenameMembers(Compile(kStructs), {{"gravity", "dt"}}));
  EXPECT_NE(MemberNameClash(twice.resources.at(1).type.members, "binding 1")
                .value_or("(none)")
                .find("members 0 and 1 are both named dt (the SPIR-V names both so)"),
            std::string::npos);
}

TEST(InterfaceNames, OptimisedShadercModuleHasNone) {
  // shaderc strips debug information when it optimises, as a user's release build would.
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  auto result = compiler.CompileGlslToSpv(kNamed, shaderc_compute_shader, "named.comp", options);
  ASSERT_EQ(result.GetCompilationStatus(), shaderc_compilation_status_success) << result.GetErrorMessage();
  auto shader = ReflectInterface({result.cbegin(), result.cend()});
  EXPECT_FALSE(shader.has_names);
  ASSERT_EQ(shader.resources.size(), 1u);
  EXPECT_EQ(shader.resources[0].kind, ResourceKind::kStorageBuffer);
  EXPECT_EQ(shader.constants.at(0).id, 2u);
}

TEST(InterfaceNames, ByteSwappedModuleReadsTheSame) {
  auto words = Compile(kNamed);
  for (uint32_t& w : words) w = __builtin_bswap32(w);
  auto shader = ReflectInterface(words);
  EXPECT_EQ(shader.entry_point, "main");
  EXPECT_EQ(shader.resources.at(0).block, "Data");
  EXPECT_EQ(shader.local_size.literal[0], 64u);
}

// ---- Capabilities ----------------------------------------------------------------------------

TEST(InterfaceCapabilities, SubgroupArithmeticAndAnUnknownOne) {
  auto shader = Reflect(R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float values[]; };
void main() { values[gl_GlobalInvocationID.x] = subgroupAdd(values[gl_GlobalInvocationID.x]); }
)");
  EXPECT_EQ(shader.capabilities.at(0), "Shader");
  EXPECT_TRUE(Has(shader.capabilities, "GroupNonUniform"));
  EXPECT_TRUE(Has(shader.capabilities, "GroupNonUniformArithmetic"));
  EXPECT_FALSE(Has(shader.capabilities, "Float16"));

  auto words = Assembler().ComputeHeader().Op(17, {9}).Op(17, {64999}).words();
  auto assembled = ReflectInterface(words);
  EXPECT_EQ(assembled.capabilities, (std::vector<std::string>{"Shader", "Float16", "Capability64999"}));
}

// ---- What the instructions read and write ----------------------------------------------------

constexpr const char* kAccess = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { float a[]; };
layout(std430, binding = 1) buffer Out { float b[]; };
layout(std430, binding = 2) buffer Both { float c[]; };
layout(std430, binding = 3) buffer Count { uint n; };
layout(std430, binding = 4) buffer Unused { float d[]; };
layout(std140, binding = 5) uniform Params { float k; };
layout(binding = 6, r32f) uniform writeonly image2D picture;
layout(std430, set = 1, binding = 0) writeonly buffer Declared { float e[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  b[i] = a[i] * k;
  c[i] += 1.0;
  atomicAdd(n, 1u);
  imageStore(picture, ivec2(i, 0), vec4(0));
  e[i] = 2.0;
}
)";

TEST(InterfaceAccess, ReadsAndWritesByInstructionsNotDeclarations) {
  const auto shader = Reflect(kAccess);
  struct Want {
    uint32_t set, binding;
    bool reads, writes;
  };
  // In and Out are declared with neither readonly nor writeonly; the atomic reads and writes; the
  // image is not followed, so both.
  for (const Want& want : {Want{0, 0, true, false}, Want{0, 1, false, true}, Want{0, 2, true, true},
                           Want{0, 3, true, true}, Want{0, 4, false, false}, Want{0, 5, true, false},
                           Want{0, 6, true, true}, Want{1, 0, false, true}}) {
    const Resource* r = At(shader, want.set, want.binding);
    ASSERT_NE(r, nullptr) << want.set << " " << want.binding;
    EXPECT_EQ(r->reads, want.reads) << want.set << " " << want.binding;
    EXPECT_EQ(r->writes, want.writes) << want.set << " " << want.binding;
  }
  EXPECT_FALSE(At(shader, 0, 0)->readonly);
}

TEST(InterfaceAccess, ByteSwappedModuleReadsTheSame) {
  auto words = Compile(kAccess);
  for (uint32_t& w : words) w = __builtin_bswap32(w);
  const auto shader = ReflectInterface(words);
  EXPECT_TRUE(At(shader, 0, 0)->reads);
  EXPECT_FALSE(At(shader, 0, 0)->writes);
  EXPECT_TRUE(At(shader, 0, 2)->reads && At(shader, 0, 2)->writes);
}

TEST(InterfaceAccess, ASelectOfValuesKeepsEachBufferReadOnly) {
  const auto shader = Reflect(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer A { float a[]; };
layout(std430, binding = 1) buffer B { float b[]; };
layout(std430, binding = 2) buffer Out { float o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = (i % 2u == 0u ? a[i] : b[i]);
}
)");
  EXPECT_TRUE(At(shader, 0, 0)->reads);
  EXPECT_FALSE(At(shader, 0, 0)->writes);
  EXPECT_TRUE(At(shader, 0, 1)->reads);
  EXPECT_FALSE(At(shader, 0, 1)->writes);
  EXPECT_FALSE(At(shader, 0, 2)->reads);
  EXPECT_TRUE(At(shader, 0, 2)->writes);
}

TEST(InterfaceAccess, APointerChosenByOpSelectIsBoth) {
  // Two storage buffers (a Block struct of one float, variables 20 and 21 at bindings 0 and 1) and
  // OpSelect between their pointers: which one a later access goes through is not followed.
  const auto words = Assembler()
                         .ComputeHeader()
                         .Op(71, {3, 2})       // OpDecorate %3 Block
                         .Op(72, {3, 0, 35, 0})  // OpMemberDecorate %3 0 Offset 0
                         .Op(71, {20, 34, 0})  // OpDecorate %20 DescriptorSet 0
                         .Op(71, {20, 33, 0})  // OpDecorate %20 Binding 0
                         .Op(71, {21, 34, 0})
                         .Op(71, {21, 33, 1})
                         .Op(22, {2, 32})      // %2 = OpTypeFloat 32
                         .Op(30, {3, 2})       // %3 = OpTypeStruct %2
                         .Op(32, {4, 12, 3})   // %4 = OpTypePointer StorageBuffer %3
                         .Op(20, {5})          // %5 = OpTypeBool
                         .Op(41, {5, 6})       // %6 = OpConstantTrue %5
                         .Op(59, {4, 20, 12})  // %20 = OpVariable %4 StorageBuffer
                         .Op(59, {4, 21, 12})
                         .Op(169, {4, 30, 6, 20, 21})  // %30 = OpSelect %4 %6 %20 %21
                         .words();
  const auto shader = ReflectInterface(words);
  ASSERT_EQ(shader.resources.size(), 2u);
  for (const Resource& r : shader.resources) {
    EXPECT_EQ(r.kind, ResourceKind::kStorageBuffer);
    EXPECT_TRUE(r.reads && r.writes) << r.binding;
  }
}

// ---- Modules that are not one compute shader, and broken ones ---------------------------------

TEST(InterfaceMalformed, NotAModule) {
  EXPECT_NE(ErrorText({}).find("no words"), std::string::npos) << ErrorText({});
  EXPECT_NE(ErrorText({0x12345678, 0, 0, 0, 0}).find("magic"), std::string::npos);
  EXPECT_NE(ErrorText({0x07230203, 0x10000}).find("header"), std::string::npos);
}

TEST(InterfaceMalformed, TruncatedModules) {
  const auto words = Compile(kNamed);
  ASSERT_GT(words.size(), 40u);
  // Cut anywhere: an error (the instruction runs past the end, or what remains lacks the entry
  // point) or, cut at an instruction's end after everything needed, a description; never a crash.
  for (size_t size = 0; size < words.size(); ++size) {
    std::vector<uint32_t> cut(words.begin(), words.begin() + size);
    try {
      ReflectInterface(cut);
    } catch (const Error&) {
    }
  }
  std::vector<uint32_t> cut(words.begin(),
                            words.begin() + 7);  // inside the first instruction
  EXPECT_NE(ErrorText(cut).find("has"), std::string::npos) << ErrorText(cut);
}

TEST(InterfaceMalformed, InstructionRunsPastTheEnd) {
  auto words = Assembler().ComputeHeader().Op(16, {1, 17, 1, 1, 1}).words();
  words[words.size() - 6] = (40u << 16) | 16;  // OpExecutionMode claiming 40 words
  EXPECT_NE(ErrorText(words).find("has 40 words"), std::string::npos) << ErrorText(words);
}

TEST(InterfaceMalformed, WordCountZero) {
  auto words = Assembler().ComputeHeader().words();
  words.push_back(0x00000011);  // opcode 17, word count 0
  EXPECT_NE(ErrorText(words).find("word count of 0"), std::string::npos) << ErrorText(words);
}

TEST(InterfaceMalformed, TooFewOperands) {
  auto words = Assembler().ComputeHeader().Op(21, {10, 32}).words();  // OpTypeInt without signedness
  EXPECT_NE(ErrorText(words).find("OpTypeInt"), std::string::npos) << ErrorText(words);
  auto mode = Assembler().ComputeHeader().Op(16, {1, 17, 8}).words();  // LocalSize with one dimension
  EXPECT_NE(ErrorText(mode).find("local size"), std::string::npos) << ErrorText(mode);
}

TEST(InterfaceMalformed, NoOrTwoComputeEntryPoints) {
  auto vertex = Assembler().Op(17, {1}).Op(14, {0, 1}).Op(15, {0, 1}, "vs").words();
  EXPECT_NE(ErrorText(vertex).find("no GLCompute entry point"), std::string::npos) << ErrorText(vertex);
  auto two = Assembler().ComputeHeader().Op(15, {5, 2}, "other").words();
  EXPECT_NE(ErrorText(two).find("2 GLCompute entry points (main, other)"), std::string::npos) << ErrorText(two);
}

TEST(InterfaceMalformed, ATypeThatContainsItself) {
  // %10 = struct { %11 }, %11 = struct { %10 }: a storage buffer of it.
  auto words = Assembler()
                   .ComputeHeader()
                   .Op(71, {10, 2})
                   .Op(30, {10, 11})
                   .Op(30, {11, 10})
                   .Op(32, {12, 12, 10})
                   .Op(59, {12, 13, 12})
                   .words();
  EXPECT_NE(ErrorText(words).find("nest deeper"), std::string::npos) << ErrorText(words);
}

TEST(InterfaceMalformed, AnIdDefinedTwice) {
  auto words = Assembler().ComputeHeader().Op(21, {10, 32, 0}).Op(22, {10, 32}).words();
  EXPECT_NE(ErrorText(words).find("id 10 is defined"), std::string::npos) << ErrorText(words);
}

TEST(InterfaceMalformed, ExponentialTypeTreeIsRefused) {
  // Each struct holds 8 of the one before it: 8^8 leaves from a few dozen words.
  Assembler a;
  a.ComputeHeader().Op(21, {10, 32, 0});
  for (uint32_t level = 0; level < 8; ++level) {
    const uint32_t inner = 10 + level;
    a.Op(30, {11 + level, inner, inner, inner, inner, inner, inner, inner, inner});
  }
  a.Op(71, {18, 2}).Op(32, {30, 12, 18}).Op(59, {30, 31, 12});
  EXPECT_NE(ErrorText(a.words()).find("parts to describe"), std::string::npos) << ErrorText(a.words());
}

}  // namespace
}  // namespace csbench
