#include "harness/vulkan/interface.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <unordered_map>
#include <utility>

#include "harness/base/error.hpp"
#include "harness/vulkan/spirv_access.hpp"
#include "harness/vulkan/spirv_words.hpp"

namespace csbench {
namespace {

// ---- Numbers from the SPIR-V specification (spirv_words.hpp) -----------------------------------

using namespace spirv;

// The instructions read here, with their names for messages, the fewest operands (words after the
// opcode word) each must have for the operands read to exist, and where its result id is (types
// have it first; constants and variables have their result type first).
struct OpInfo {
  Op op;
  std::string_view name;
  uint32_t min_operands;
  int result = -1;  // index of the result id among the operands; -1 for none
};
constexpr OpInfo kOps[] = {
    {kOpName, "OpName", 2},
    {kOpMemberName, "OpMemberName", 3},
    {kOpEntryPoint, "OpEntryPoint", 3},
    {kOpExecutionMode, "OpExecutionMode", 2},
    {kOpCapability, "OpCapability", 1},
    {kOpTypeVoid, "OpTypeVoid", 1, 0},
    {kOpTypeBool, "OpTypeBool", 1, 0},
    {kOpTypeInt, "OpTypeInt", 3, 0},
    {kOpTypeFloat, "OpTypeFloat", 2, 0},
    {kOpTypeVector, "OpTypeVector", 3, 0},
    {kOpTypeMatrix, "OpTypeMatrix", 3, 0},
    {kOpTypeImage, "OpTypeImage", 8, 0},
    {kOpTypeSampler, "OpTypeSampler", 1, 0},
    {kOpTypeSampledImage, "OpTypeSampledImage", 2, 0},
    {kOpTypeArray, "OpTypeArray", 3, 0},
    {kOpTypeRuntimeArray, "OpTypeRuntimeArray", 2, 0},
    {kOpTypeStruct, "OpTypeStruct", 1, 0},
    {kOpTypePointer, "OpTypePointer", 3, 0},
    {kOpConstantTrue, "OpConstantTrue", 2, 1},
    {kOpConstantFalse, "OpConstantFalse", 2, 1},
    {kOpConstant, "OpConstant", 3, 1},
    {kOpConstantComposite, "OpConstantComposite", 2, 1},
    {kOpSpecConstantTrue, "OpSpecConstantTrue", 2, 1},
    {kOpSpecConstantFalse, "OpSpecConstantFalse", 2, 1},
    {kOpSpecConstant, "OpSpecConstant", 3, 1},
    {kOpSpecConstantComposite, "OpSpecConstantComposite", 2, 1},
    {kOpVariable, "OpVariable", 3, 1},
    {kOpDecorate, "OpDecorate", 2},
    {kOpMemberDecorate, "OpMemberDecorate", 3},
    {kOpExecutionModeId, "OpExecutionModeId", 2},
    {kOpTypeAccelerationStructure, "OpTypeAccelerationStructureKHR", 1, 0},
};

const OpInfo* FindOp(uint32_t op) {
  for (const OpInfo& info : kOps) {
    if (info.op == op) return &info;
  }
  return nullptr;
}

constexpr uint32_t kDimBuffer = 5;
constexpr uint32_t kDimSubpassData = 6;

constexpr std::string_view kDimNames[] = {"1D", "2D", "3D", "Cube", "Rect", "Buffer", "SubpassData"};
// Image formats by their SPIR-V number, as GLSL's layout qualifiers spell them.
constexpr std::string_view kFormatNames[] = {
    "unknown",        "rgba32f",    "rgba16f",    "r32f",      "rgba8",    "rgba8_snorm", "rg32f",    "rg16f",
    "r11f_g11f_b10f", "r16f",       "rgba16",     "rgb10_a2",  "rg16",     "rg8",         "r16",      "r8",
    "rgba16_snorm",   "rg16_snorm", "rg8_snorm",  "r16_snorm", "r8_snorm", "rgba32i",     "rgba16i",  "rgba8i",
    "r32i",           "rg32i",      "rg16i",      "rg8i",      "r16i",     "r8i",         "rgba32ui", "rgba16ui",
    "rgba8ui",        "r32ui",      "rgb10_a2ui", "rg32ui",    "rg16ui",   "rg8ui",       "r16ui",    "r8ui",
    "r64ui",          "r64i"};

// The capabilities a compute shader is likely to declare: most of them name a device feature.
struct CapabilityName {
  uint32_t number;
  std::string_view name;
};
constexpr CapabilityName kCapabilities[] = {
    {0, "Matrix"},
    {1, "Shader"},
    {8, "Float16Buffer"},
    {9, "Float16"},
    {10, "Float64"},
    {11, "Int64"},
    {12, "Int64Atomics"},
    {14, "ImageReadWrite"},
    {22, "Int16"},
    {25, "ImageGatherExtended"},
    {27, "StorageImageMultisample"},
    {28, "UniformBufferArrayDynamicIndexing"},
    {29, "SampledImageArrayDynamicIndexing"},
    {30, "StorageBufferArrayDynamicIndexing"},
    {31, "StorageImageArrayDynamicIndexing"},
    {34, "ImageCubeArray"},
    {36, "ImageRect"},
    {37, "SampledRect"},
    {39, "Int8"},
    {41, "SparseResidency"},
    {42, "MinLod"},
    {43, "Sampled1D"},
    {44, "Image1D"},
    {45, "SampledCubeArray"},
    {46, "SampledBuffer"},
    {47, "ImageBuffer"},
    {48, "ImageMSArray"},
    {49, "StorageImageExtendedFormats"},
    {50, "ImageQuery"},
    {55, "StorageImageReadWithoutFormat"},
    {56, "StorageImageWriteWithoutFormat"},
    {61, "GroupNonUniform"},
    {62, "GroupNonUniformVote"},
    {63, "GroupNonUniformArithmetic"},
    {64, "GroupNonUniformBallot"},
    {65, "GroupNonUniformShuffle"},
    {66, "GroupNonUniformShuffleRelative"},
    {67, "GroupNonUniformClustered"},
    {68, "GroupNonUniformQuad"},
    {4423, "SubgroupBallotKHR"},
    {4428, "WorkgroupMemoryExplicitLayoutKHR"},
    {4429, "WorkgroupMemoryExplicitLayout8BitAccessKHR"},
    {4430, "WorkgroupMemoryExplicitLayout16BitAccessKHR"},
    {4431, "SubgroupVoteKHR"},
    {4433, "StorageBuffer16BitAccess"},
    {4434, "UniformAndStorageBuffer16BitAccess"},
    {4435, "StoragePushConstant16"},
    {4436, "StorageInputOutput16"},
    {4441, "VariablePointersStorageBuffer"},
    {4442, "VariablePointers"},
    {4448, "StorageBuffer8BitAccess"},
    {4449, "UniformAndStorageBuffer8BitAccess"},
    {4450, "StoragePushConstant8"},
    {4464, "DenormPreserve"},
    {4465, "DenormFlushToZero"},
    {4466, "SignedZeroInfNanPreserve"},
    {4467, "RoundingModeRTE"},
    {4468, "RoundingModeRTZ"},
    {4472, "RayQueryKHR"},
    {5008, "Float16ImageAMD"},
    {5016, "Int64ImageEXT"},
    {5055, "ShaderClockKHR"},
    {5288, "ComputeDerivativeGroupQuadsNV"},
    {5301, "ShaderNonUniform"},
    {5302, "RuntimeDescriptorArray"},
    {5304, "UniformTexelBufferArrayDynamicIndexing"},
    {5305, "StorageTexelBufferArrayDynamicIndexing"},
    {5306, "UniformBufferArrayNonUniformIndexing"},
    {5307, "SampledImageArrayNonUniformIndexing"},
    {5308, "StorageBufferArrayNonUniformIndexing"},
    {5309, "StorageImageArrayNonUniformIndexing"},
    {5311, "UniformTexelBufferArrayNonUniformIndexing"},
    {5312, "StorageTexelBufferArrayNonUniformIndexing"},
    {5345, "VulkanMemoryModel"},
    {5346, "VulkanMemoryModelDeviceScope"},
    {5347, "PhysicalStorageBufferAddresses"},
    {5350, "ComputeDerivativeGroupLinearNV"},
    {5357, "CooperativeMatrixNV"},
    {5379, "DemoteToHelperInvocation"},
    {5612, "AtomicFloat32MinMaxEXT"},
    {5613, "AtomicFloat64MinMaxEXT"},
    {5616, "AtomicFloat16MinMaxEXT"},
    {6016, "DotProductInputAll"},
    {6017, "DotProductInput4x8Bit"},
    {6018, "DotProductInput4x8BitPacked"},
    {6019, "DotProduct"},
    {6033, "AtomicFloat32AddEXT"},
    {6034, "AtomicFloat64AddEXT"},
    {6095, "AtomicFloat16AddEXT"},
};

std::string CapabilityText(uint32_t number) {
  for (const auto& c : kCapabilities) {
    if (c.number == number) return std::string(c.name);
  }
  return fmt::format("Capability{}", number);
}

// Types nest no deeper than this, and no more type nodes than this are described in a module: a
// malformed module may make a type contain itself, or share types so that the tree grows
// exponentially with the module's size.
constexpr int kMaxTypeDepth = 64;
constexpr size_t kMaxTypeNodes = size_t{1} << 16;

// ---- The module, read once ---------------------------------------------------------------------

struct Decorations {
  std::optional<uint32_t> spec_id, binding, set, offset, array_stride, matrix_stride, builtin;
  bool block = false, buffer_block = false, row_major = false, non_writable = false, non_readable = false;
};

class Module {
 public:
  explicit Module(const std::vector<uint32_t>& spirv) : words_(spirv) {
    Require(!words_.empty(), "not a SPIR-V module: no words");
    // A module written on a machine of the other byte order reads with its magic number swapped.
    if (words_[0] == __builtin_bswap32(kMagic)) {
      for (uint32_t& w : words_) w = __builtin_bswap32(w);
    }
    Require(words_[0] == kMagic, fmt::format("not a SPIR-V module: the first word is {:#010x}, not the magic "
                                             "number {:#010x}",
                                             words_[0], kMagic));
    Require(words_.size() >= kHeaderWords,
            fmt::format("not a SPIR-V module: {} words, fewer than the {}-word header", words_.size(), kHeaderWords));
    const Instructions code(words_);
    for (const Instruction& in : code) Read(in);
    if (const auto bad = code.Stop()) {
      throw Error(bad->count == 0 ? fmt::format("malformed SPIR-V: the instruction at word {} has a word count of 0",
                                                bad->at)
                                  : fmt::format("malformed SPIR-V: the instruction at word {} (opcode {}) has {} "
                                                "words; the module ends {} words after it starts",
                                                bad->at, bad->op, bad->count, bad->left));
    }
  }

  // The module's words, in host byte order.
  std::span<const uint32_t> words() const { return words_; }
  const Instruction* Def(uint32_t id) const {
    auto it = defs_.find(id);
    return it == defs_.end() ? nullptr : &it->second;
  }
  const Decorations& Decor(uint32_t id) const {
    auto it = decorations_.find(id);
    return it == decorations_.end() ? kNone : it->second;
  }
  const Decorations& MemberDecor(uint32_t type, uint32_t member) const {
    auto it = member_decorations_.find({type, member});
    return it == member_decorations_.end() ? kNone : it->second;
  }
  std::string Name(uint32_t id) const {
    auto it = names_.find(id);
    return it == names_.end() ? "" : it->second;
  }
  std::string MemberName(uint32_t type, uint32_t member) const {
    auto it = member_names_.find({type, member});
    return it == member_names_.end() ? "" : it->second;
  }

  bool has_names = false;
  std::vector<Instruction> entry_points, modes, capabilities;
  // In module order, so that what is collected from them comes out the same every time.
  std::vector<Instruction> variables, spec_constants;
  std::vector<uint32_t> workgroup_size_ids;  // ids decorated BuiltIn WorkgroupSize

 private:
  void Read(const Instruction& in) {
    const OpInfo* info = FindOp(in.op);
    if (info == nullptr) return;  // an instruction this reading does not need
    Require(in.operands.size() >= info->min_operands,
            fmt::format("malformed SPIR-V: {} at word {} has {} operands; it "
                        "needs at least {}",
                        info->name, in.at, in.operands.size(), info->min_operands));
    const auto& w = in.operands;
    if (info->result >= 0) {
      const uint32_t id = w[info->result];
      auto [it, added] = defs_.emplace(id, in);
      Require(added, fmt::format("malformed SPIR-V: id {} is defined at word "
                                 "{} and again at word {}",
                                 id, it->second.at, in.at));
    }
    switch (in.op) {
      case kOpName:
        has_names = true;
        names_[w[0]] = LiteralString(w.subspan(1));
        break;
      case kOpMemberName:
        has_names = true;
        member_names_[{w[0], w[1]}] = LiteralString(w.subspan(2));
        break;
      case kOpEntryPoint:
        entry_points.push_back(in);
        break;
      case kOpExecutionMode:
      case kOpExecutionModeId:
        modes.push_back(in);
        break;
      case kOpCapability:
        capabilities.push_back(in);
        break;
      case kOpVariable:
        variables.push_back(in);
        break;
      case kOpSpecConstant:
      case kOpSpecConstantTrue:
      case kOpSpecConstantFalse:
        spec_constants.push_back(in);
        break;
      case kOpDecorate:
        Decorate(decorations_[w[0]], w[0], w.subspan(1), in);
        break;
      case kOpMemberDecorate:
        Decorate(member_decorations_[{w[0], w[1]}], std::nullopt, w.subspan(2), in);
        break;
      default:
        break;
    }
  }

  // `d` is the decoration and its operands; `id` the decorated id (none for a member).
  void Decorate(Decorations& to, std::optional<uint32_t> id, std::span<const uint32_t> d, const Instruction& in) {
    auto operand = [&]() {
      Require(d.size() >= 2, fmt::format("malformed SPIR-V: decoration {} at word {} lacks its operand", d[0], in.at));
      return d[1];
    };
    switch (d[0]) {
      case kDecorationSpecId:
        to.spec_id = operand();
        break;
      case kDecorationBlock:
        to.block = true;
        break;
      case kDecorationBufferBlock:
        to.buffer_block = true;
        break;
      case kDecorationRowMajor:
        to.row_major = true;
        break;
      case kDecorationArrayStride:
        to.array_stride = operand();
        break;
      case kDecorationMatrixStride:
        to.matrix_stride = operand();
        break;
      case kDecorationBuiltIn:
        to.builtin = operand();
        if (id && *to.builtin == kBuiltInWorkgroupSize) workgroup_size_ids.push_back(*id);
        break;
      case kDecorationNonWritable:
        to.non_writable = true;
        break;
      case kDecorationNonReadable:
        to.non_readable = true;
        break;
      case kDecorationBinding:
        to.binding = operand();
        break;
      case kDecorationDescriptorSet:
        to.set = operand();
        break;
      case kDecorationOffset:
        to.offset = operand();
        break;
      default:
        break;
    }
  }

  static inline const Decorations kNone{};
  std::vector<uint32_t> words_;  // a copy: the instructions' spans point into it
  std::unordered_map<uint32_t, Instruction> defs_;
  std::unordered_map<uint32_t, std::string> names_;
  std::map<std::pair<uint32_t, uint32_t>, std::string> member_names_;
  std::unordered_map<uint32_t, Decorations> decorations_;
  std::map<std::pair<uint32_t, uint32_t>, Decorations> member_decorations_;
};

// ---- Values and types --------------------------------------------------------------------------

uint32_t Saturate(uint64_t n) {
  return static_cast<uint32_t>(std::min<uint64_t>(n, std::numeric_limits<uint32_t>::max()));
}

std::optional<ScalarType> Scalar(const Module& m, uint32_t type_id) {
  const Instruction* t = m.Def(type_id);
  if (t == nullptr) return std::nullopt;
  switch (t->op) {
    case kOpTypeBool:
      return ScalarType{ScalarKind::kBool, 32};
    case kOpTypeInt:
      return ScalarType{t->operands[2] != 0 ? ScalarKind::kInt : ScalarKind::kUint, t->operands[1]};
    case kOpTypeFloat:
      return ScalarType{ScalarKind::kFloat, t->operands[1]};
    default:
      return std::nullopt;
  }
}

// A scalar constant's value and, for a specialization constant, its SpecId.
struct ConstantValue {
  uint64_t bits = 0;
  std::optional<uint32_t> spec_id;
};

std::optional<ConstantValue> Constant(const Module& m, uint32_t id) {
  const Instruction* c = m.Def(id);
  if (c == nullptr) return std::nullopt;
  ConstantValue v;
  switch (c->op) {
    case kOpConstantTrue:
    case kOpSpecConstantTrue:
      v.bits = 1;
      break;
    case kOpConstantFalse:
    case kOpSpecConstantFalse:
      v.bits = 0;
      break;
    case kOpConstant:
    case kOpSpecConstant:
      // A 64-bit value's low word comes first.
      v.bits = c->operands[2] | (c->operands.size() >= 4 ? uint64_t{c->operands[3]} << 32 : 0);
      break;
    default:
      return std::nullopt;
  }
  if (c->op == kOpSpecConstant || c->op == kOpSpecConstantTrue || c->op == kOpSpecConstantFalse) {
    v.spec_id = m.Decor(id).spec_id;
  }
  return v;
}

std::string ScalarGlsl(ScalarType s) {
  switch (s.kind) {
    case ScalarKind::kBool:
      return "bool";
    case ScalarKind::kFloat:
      return s.bits == 16 ? "float16_t" : s.bits == 32 ? "float" : s.bits == 64 ? "double" : "";
    case ScalarKind::kInt:
    case ScalarKind::kUint: {
      const bool is_signed = s.kind == ScalarKind::kInt;
      if (s.bits == 32) return is_signed ? "int" : "uint";
      if (s.bits != 8 && s.bits != 16 && s.bits != 64) return "";
      return fmt::format("{}int{}_t", is_signed ? "" : "u", s.bits);
    }
  }
  return "";
}

// The prefix of a vector of `s` ("" for vec, "f16", "i8", "u", "b"); "?" for a width GLSL has no
// name for.
std::string VectorPrefix(ScalarType s) {
  switch (s.kind) {
    case ScalarKind::kBool:
      return "b";
    case ScalarKind::kFloat:
      return s.bits == 16 ? "f16" : s.bits == 32 ? "" : s.bits == 64 ? "d" : "?";
    case ScalarKind::kInt:
    case ScalarKind::kUint: {
      const char* sign = s.kind == ScalarKind::kInt ? "i" : "u";
      if (s.bits == 32) return sign;
      if (s.bits != 8 && s.bits != 16 && s.bits != 64) return "?";
      return fmt::format("{}{}", sign, s.bits);
    }
  }
  return "?";
}

std::string ImageGlsl(const Module& m, const Instruction& image, std::string_view base, bool shadow) {
  const auto& w = image.operands;
  const auto sampled = Scalar(m, w[1]);
  std::string prefix;
  if (sampled && sampled->kind == ScalarKind::kInt) prefix = "i";
  if (sampled && sampled->kind == ScalarKind::kUint) prefix = "u";
  const uint32_t dim = w[2];
  if (dim == kDimSubpassData) return prefix + "subpassInput" + (w[5] != 0 ? "MS" : "");
  std::string text = prefix + std::string(base);
  text += dim == 4 ? "2DRect" : dim < std::size(kDimNames) ? std::string(kDimNames[dim]) : fmt::format("Dim{}", dim);
  if (w[5] != 0) text += "MS";
  if (w[4] != 0) text += "Array";
  if (shadow && w[3] == 1) text += "Shadow";
  return text;
}

// Describes types as laid out, counting the nodes it makes against kMaxTypeNodes.
class Layouts {
 public:
  explicit Layouts(const Module& m) : m_(m) {}

  // `member` holds the decorations of the struct member the type is (or is an array in), where a
  // matrix's stride and majorness are given.
  TypeLayout Of(uint32_t type_id, const Decorations& member, int depth) {
    Require(depth <= kMaxTypeDepth, fmt::format("malformed SPIR-V: types nest deeper than {} (does a "
                                                "type contain itself?)",
                                                kMaxTypeDepth));
    Require(++nodes_ <= kMaxTypeNodes,
            fmt::format("the module's types have more than {} parts to describe", kMaxTypeNodes));
    TypeLayout t;
    const Instruction* def = m_.Def(type_id);
    if (def == nullptr) return t;
    const auto& w = def->operands;
    switch (def->op) {
      case kOpTypeBool:
      case kOpTypeInt:
      case kOpTypeFloat:
        t.kind = TypeLayout::Kind::kScalar;
        t.scalar = *Scalar(m_, type_id);
        t.size = t.scalar.bits / 8;
        t.glsl = ScalarGlsl(t.scalar);
        break;
      case kOpTypeVector: {
        const auto scalar = Scalar(m_, w[1]);
        if (!scalar) break;
        t.kind = TypeLayout::Kind::kVector;
        t.scalar = *scalar;
        t.components = w[2];
        t.size = Saturate(uint64_t{t.components} * (scalar->bits / 8));
        const std::string prefix = VectorPrefix(*scalar);
        if (prefix != "?") t.glsl = fmt::format("{}vec{}", prefix, t.components);
        break;
      }
      case kOpTypeMatrix: {
        const TypeLayout column = Of(w[1], Decorations{}, depth + 1);
        if (column.kind != TypeLayout::Kind::kVector) break;
        t.kind = TypeLayout::Kind::kMatrix;
        t.scalar = column.scalar;
        t.components = column.components;
        t.columns = w[2];
        t.matrix_stride = member.matrix_stride.value_or(0);
        t.row_major = member.row_major;
        // The stride separates columns, or rows when row-major; undecorated, the vectors are
        // packed.
        const uint64_t vectors = t.row_major ? t.components : t.columns;
        t.size = Saturate(vectors * (t.matrix_stride != 0 ? t.matrix_stride : uint64_t{column.size}));
        const std::string prefix = t.scalar.bits == 16 ? "f16" : t.scalar.bits == 64 ? "d" : "";
        t.glsl = t.columns == t.components ? fmt::format("{}mat{}", prefix, t.columns)
                                           : fmt::format("{}mat{}x{}", prefix, t.columns, t.components);
        break;
      }
      case kOpTypeArray:
      case kOpTypeRuntimeArray: {
        const bool runtime = def->op == kOpTypeRuntimeArray;
        t.kind = runtime ? TypeLayout::Kind::kRuntimeArray : TypeLayout::Kind::kArray;
        t.element = std::make_shared<TypeLayout>(Of(w[1], member, depth + 1));
        t.scalar = t.element->scalar;
        t.array_stride = m_.Decor(type_id).array_stride.value_or(0);
        if (!runtime) {
          // A length computed from constants (OpSpecConstantOp) is not a value here: 0.
          const auto length = Constant(m_, w[2]);
          t.length = length ? static_cast<uint32_t>(length->bits) : 0;
          if (length) t.length_constant_id = length->spec_id;
          t.size = Saturate(uint64_t{t.length} * (t.array_stride != 0 ? t.array_stride : t.element->size));
        }
        // GLSL writes the outer length first: float a[2][3] is an array of 2 arrays of 3.
        const std::string& inner = t.element->glsl;
        const size_t bracket = std::min(inner.find('['), inner.size());
        t.glsl = inner.substr(0, bracket) + (runtime ? "[]" : fmt::format("[{}]", t.length)) + inner.substr(bracket);
        break;
      }
      case kOpTypeStruct: {
        t.kind = TypeLayout::Kind::kStruct;
        t.glsl = m_.Name(type_id);
        uint64_t end = 0;
        for (uint32_t i = 0; i + 1 < w.size(); ++i) {
          const Decorations& d = m_.MemberDecor(type_id, i);
          // A member without a name is named by its position, so that a manifest can still give it.
          std::string name = m_.MemberName(type_id, i);
          const bool positional = name.empty();
          if (positional) name = fmt::format("_m{}", i);
          Member member_layout{.name = std::move(name),
                               .offset = d.offset.value_or(0),
                               .type = Of(w[i + 1], d, depth + 1),
                               .positional = positional};
          end = std::max(end, uint64_t{member_layout.offset} + member_layout.type.size);
          t.members.push_back(std::move(member_layout));
        }
        t.size = Saturate(end);
        break;
      }
      case kOpTypeImage: {
        const bool storage = w[6] == 2;
        t.glsl = ImageGlsl(m_, *def, storage ? "image" : "texture", false);
        break;
      }
      case kOpTypeSampledImage: {
        const Instruction* image = m_.Def(w[1]);
        if (image != nullptr && image->op == kOpTypeImage) t.glsl = ImageGlsl(m_, *image, "sampler", true);
        break;
      }
      case kOpTypeSampler:
        t.glsl = "sampler";
        break;
      default:
        break;
    }
    return t;
  }

 private:
  const Module& m_;
  size_t nodes_ = 0;
};

// ---- The interface's parts ---------------------------------------------------------------------

const Instruction& ComputeEntryPoint(const Module& m) {
  std::vector<const Instruction*> compute;
  for (const Instruction& e : m.entry_points) {
    if (e.operands[0] == kModelGLCompute) compute.push_back(&e);
  }
  if (compute.size() == 1) return *compute[0];
  if (compute.empty()) {
    throw Error(
        fmt::format("the SPIR-V module has no GLCompute entry point "
                    "({} entry points of other stages): "
                    "it is not a compute shader",
                    m.entry_points.size()));
  }
  std::string names;
  for (const Instruction* e : compute) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", LiteralString(e->operands.subspan(2)));
  }
  throw Error(
      fmt::format("the SPIR-V module has {} GLCompute entry points "
                  "({}); csbench takes a module with one",
                  compute.size(), names));
}

LocalSize ReadLocalSize(const Module& m, uint32_t entry) {
  LocalSize size;
  // Each dimension from a constant's id: a literal constant's value, or a specialization constant's
  // default and SpecId.
  auto from_ids = [&](std::span<const uint32_t> ids, const char* what) {
    for (size_t i = 0; i < 3; ++i) {
      const auto value = Constant(m, ids[i]);
      Require(value.has_value(), fmt::format("malformed SPIR-V: the {} dimension {} is id {}, not "
                                             "a scalar constant",
                                             what, i, ids[i]));
      size.literal[i] = static_cast<uint32_t>(value->bits);
      size.constant_id[i] = value->spec_id;
    }
  };
  for (const Instruction& mode : m.modes) {
    const auto& w = mode.operands;
    if (w[0] != entry) continue;
    const bool literal = mode.op == kOpExecutionMode && w[1] == kModeLocalSize;
    const bool ids = mode.op == kOpExecutionModeId && w[1] == kModeLocalSizeId;
    if (!literal && !ids) continue;
    Require(w.size() >= 5, fmt::format("malformed SPIR-V: the local size at word {} has {} of "
                                       "its 3 dimensions",
                                       mode.at, w.size() < 2 ? 0 : w.size() - 2));
    if (literal) {
      for (size_t i = 0; i < 3; ++i) size.literal[i] = w[2 + i];
    } else {
      from_ids(w.subspan(2, 3), "LocalSizeId");
    }
  }
  // A constant decorated WorkgroupSize overrides the execution mode (GLSL's local_size_*_id makes
  // one, with a specialization constant for each dimension given by id).
  for (uint32_t id : m.workgroup_size_ids) {
    const Instruction* c = m.Def(id);
    if (c == nullptr || (c->op != kOpConstantComposite && c->op != kOpSpecConstantComposite)) continue;
    Require(c->operands.size() >= 5, fmt::format("malformed SPIR-V: the WorkgroupSize constant at word "
                                                 "{} has {} of its 3 dimensions",
                                                 c->at, c->operands.size() - 2));
    from_ids(c->operands.subspan(2, 3), "WorkgroupSize");
  }
  return size;
}

std::vector<SpecConstant> ReadSpecConstants(const Module& m) {
  std::map<uint32_t, SpecConstant> by_id;
  std::set<uint32_t> named;  // SpecIds whose entry has its type and default from a named constant
  for (const Instruction& c : m.spec_constants) {
    const uint32_t id = c.operands[1];
    const auto spec_id = m.Decor(id).spec_id;
    if (!spec_id) continue;  // an intermediate value, not something the pipeline can set
    const auto type = Scalar(m, c.operands[0]);
    auto [it, added] = by_id.try_emplace(*spec_id);
    SpecConstant& constant = it->second;
    const std::string name = m.Name(id);
    // glslang gives local_size_x_id's dimension a constant of its own (default 1) beside the named
    // one with the same SpecId; the named one's type and default are what the shader's author
    // wrote.
    if (added || (!name.empty() && !named.contains(*spec_id))) {
      constant.id = *spec_id;
      constant.type = type.value_or(ScalarType{});
      const uint64_t bits = Constant(m, id)->bits;
      const uint32_t width = constant.type.kind == ScalarKind::kBool ? 1 : constant.type.bits;
      constant.default_bits = width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
    }
    if (!name.empty()) named.insert(*spec_id);
    if (!name.empty() && std::find(constant.names.begin(), constant.names.end(), name) == constant.names.end()) {
      constant.names.push_back(name);
    }
  }
  std::vector<SpecConstant> constants;
  for (auto& [id, constant] : by_id) constants.push_back(std::move(constant));
  return constants;
}

void DescribeImage(const Module& m, const Instruction& image, Resource& r) {
  const auto& w = image.operands;
  r.image_dim = w[2] < std::size(kDimNames) ? std::string(kDimNames[w[2]]) : fmt::format("Dim{}", w[2]);
  r.depth = w[3] == 1;
  r.arrayed = w[4] != 0;
  r.multisampled = w[5] != 0;
  r.image_format = w[7] < std::size(kFormatNames) ? std::string(kFormatNames[w[7]]) : fmt::format("format{}", w[7]);
  r.image_sampled = Scalar(m, w[1]).value_or(ScalarType{});
}

std::optional<Resource> ReadResource(const Module& m, Layouts& layouts, const Instruction& variable) {
  const uint32_t storage = variable.operands[2];
  if (storage != kStorageUniformConstant && storage != kStorageUniform && storage != kStorageBuffer) {
    return std::nullopt;
  }
  const Instruction* pointer = m.Def(variable.operands[0]);
  if (pointer == nullptr || pointer->op != kOpTypePointer) return std::nullopt;
  const uint32_t id = variable.operands[1];
  const Decorations& d = m.Decor(id);
  Resource r;
  r.set = d.set.value_or(0);
  r.binding = d.binding.value_or(0);
  r.variable = m.Name(id);

  // An array of blocks or images is one binding of several descriptors.
  uint32_t type_id = pointer->operands[2];
  uint64_t count = 1;
  for (int depth = 0;; ++depth) {
    Require(depth <= kMaxTypeDepth, fmt::format("malformed SPIR-V: the type of variable {} nests too deep", id));
    const Instruction* t = m.Def(type_id);
    if (t == nullptr || (t->op != kOpTypeArray && t->op != kOpTypeRuntimeArray)) break;
    if (t->op == kOpTypeRuntimeArray) {
      count = 0;
    } else {
      const auto length = Constant(m, t->operands[2]);
      count = std::min<uint64_t>(count * (length ? length->bits : 0), std::numeric_limits<uint32_t>::max());
    }
    type_id = t->operands[1];
  }
  r.count = static_cast<uint32_t>(count);

  const Instruction* t = m.Def(type_id);
  r.type = layouts.Of(type_id, Decorations{}, 0);
  bool cannot_write = false;
  if (t != nullptr && t->op == kOpTypeStruct) {
    const Decorations& block = m.Decor(type_id);
    r.block = m.Name(type_id);
    if (storage == kStorageBuffer || (storage == kStorageUniform && block.buffer_block)) {
      r.kind = ResourceKind::kStorageBuffer;
    } else if (storage == kStorageUniform && block.block) {
      r.kind = ResourceKind::kUniformBuffer;
      cannot_write = true;
    }
  } else if (t != nullptr && t->op == kOpTypeImage) {
    DescribeImage(m, *t, r);
    const bool buffer = t->operands[2] == kDimBuffer;
    if (t->operands[2] == kDimSubpassData) {
      r.kind = ResourceKind::kOther;
    } else if (t->operands[6] == 2) {
      r.kind = buffer ? ResourceKind::kStorageTexelBuffer : ResourceKind::kStorageImage;
    } else if (t->operands[6] == 1) {
      r.kind = buffer ? ResourceKind::kUniformTexelBuffer : ResourceKind::kSampledImage;
      cannot_write = true;
    }
  } else if (t != nullptr && t->op == kOpTypeSampledImage) {
    const Instruction* image = m.Def(t->operands[1]);
    const bool buffer = image != nullptr && image->op == kOpTypeImage && image->operands[2] == kDimBuffer;
    if (image != nullptr && image->op == kOpTypeImage) DescribeImage(m, *image, r);
    // GLSL's samplerBuffer is an image with a sampler around it, but Vulkan binds it as a uniform
    // texel buffer: a buffer view has nothing to sample with.
    r.kind = buffer ? ResourceKind::kUniformTexelBuffer : ResourceKind::kCombinedImageSampler;
    cannot_write = true;
  } else if (t != nullptr && t->op == kOpTypeSampler) {
    r.kind = ResourceKind::kSampler;
    cannot_write = true;
  }

  // glslang puts a block's readonly/writeonly on each member; other compilers on the variable.
  auto every_member = [&](bool Decorations::*flag) {
    if (t == nullptr || t->op != kOpTypeStruct || t->operands.size() < 2) return false;
    for (uint32_t i = 0; i + 1 < t->operands.size(); ++i) {
      if (!(m.MemberDecor(type_id, i).*flag)) return false;
    }
    return true;
  };
  r.readonly = cannot_write || d.non_writable || every_member(&Decorations::non_writable);
  r.writeonly = d.non_readable || every_member(&Decorations::non_readable);
  return r;
}

std::optional<PushBlock> ReadPushBlock(const Module& m, Layouts& layouts) {
  for (const Instruction& variable : m.variables) {
    if (variable.operands[2] != kStoragePushConstant) continue;
    const Instruction* pointer = m.Def(variable.operands[0]);
    if (pointer == nullptr || pointer->op != kOpTypePointer) continue;
    const uint32_t type_id = pointer->operands[2];
    TypeLayout type = layouts.Of(type_id, Decorations{}, 0);
    if (type.kind != TypeLayout::Kind::kStruct) continue;
    return PushBlock{.variable = m.Name(variable.operands[1]),
                     .block = type.glsl,
                     .size = type.size,
                     .members = std::move(type.members)};
  }
  return std::nullopt;
}

}  // namespace

std::string_view KindName(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kStorageBuffer:
      return "storage buffer";
    case ResourceKind::kUniformBuffer:
      return "uniform buffer";
    case ResourceKind::kStorageImage:
      return "storage image";
    case ResourceKind::kSampledImage:
      return "sampled image";
    case ResourceKind::kCombinedImageSampler:
      return "combined image sampler";
    case ResourceKind::kSampler:
      return "sampler";
    case ResourceKind::kUniformTexelBuffer:
      return "uniform texel buffer";
    case ResourceKind::kStorageTexelBuffer:
      return "storage texel buffer";
    case ResourceKind::kOther:
      return "other";
  }
  return "other";
}

std::optional<std::string> MemberNameClash(const std::vector<Member>& members, const std::string& what) {
  std::map<std::string_view, size_t> seen;
  for (size_t i = 0; i < members.size(); ++i) {
    const Member& member = members[i];
    auto [first, fresh] = seen.emplace(member.name, i);
    if (!fresh) {
      const size_t earlier = first->second;
      const bool by_position = members[earlier].positional || member.positional;
      return fmt::format("{}: members {} and {} are both named {} ({}): no name may stand for two members", what,
                         earlier, i, member.name,
                         !by_position ? std::string("the SPIR-V names both so")
                                      : fmt::format("member {} has no name in the SPIR-V and is named by its "
                                                    "position; the other's name is the shader's own",
                                                    members[earlier].positional ? earlier : i));
    }
    const TypeLayout* type = &member.type;
    while (type->element != nullptr) type = type->element.get();
    if (type->kind == TypeLayout::Kind::kStruct) {
      if (auto clash = MemberNameClash(type->members, fmt::format("{}, member {}", what, member.name))) return clash;
    }
  }
  return std::nullopt;
}

ShaderInterface ReflectInterface(const std::vector<uint32_t>& spirv) {
  const Module m(spirv);
  ShaderInterface shader;
  const Instruction& entry = ComputeEntryPoint(m);
  shader.entry_point = LiteralString(entry.operands.subspan(2));
  shader.local_size = ReadLocalSize(m, entry.operands[1]);
  shader.constants = ReadSpecConstants(m);
  Layouts layouts(m);
  for (const Instruction& variable : m.variables) {
    if (auto r = ReadResource(m, layouts, variable)) shader.resources.push_back(std::move(*r));
  }
  std::stable_sort(shader.resources.begin(), shader.resources.end(), [](const Resource& a, const Resource& b) {
    return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
  });
  const auto access = AccessBySlot(m.words());
  for (Resource& r : shader.resources) {
    const bool buffer = r.kind == ResourceKind::kStorageBuffer || r.kind == ResourceKind::kUniformBuffer;
    const auto a = access.find({r.set, r.binding});
    r.reads = !buffer || (a != access.end() && a->second.reads);
    r.writes = !buffer || (a != access.end() && a->second.writes);
  }
  shader.push = ReadPushBlock(m, layouts);
  shader.has_names = m.has_names;
  for (const Instruction& c : m.capabilities) shader.capabilities.push_back(CapabilityText(c.operands[0]));
  for (const Instruction& in : Instructions(m.words())) shader.reads_array_length |= in.op == kOpArrayLength;
  return shader;
}

}  // namespace csbench
