// Everything a compute shader declares (entry point, workgroup size, specialization constants,
// descriptors, push constants, capabilities), read from its SPIR-V alone. A user's shader may come
// as GLSL, HLSL or a prebuilt .spv; the SPIR-V is what all three have in common, so a manifest is
// checked against this description whichever the source was.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

enum class ScalarKind { kBool, kInt, kUint, kFloat };

struct ScalarType {
  ScalarKind kind = ScalarKind::kFloat;
  // 8, 16, 32 or 64. A bool has no width in SPIR-V; it is given 32 because that is the size
  // Vulkan's specialization data gives a boolean constant (VkBool32).
  uint32_t bits = 32;
  bool operator==(const ScalarType&) const = default;
};

struct Member;

// A type as laid out in a block. The offsets and strides are the SPIR-V's own decorations (Offset,
// ArrayStride, MatrixStride), so std430, std140, scalar or HLSL packing all read the same: nothing
// here recomputes a layout rule.
struct TypeLayout {
  enum class Kind { kScalar, kVector, kMatrix, kArray, kRuntimeArray, kStruct, kOther };
  Kind kind = Kind::kOther;
  // The scalar at the bottom of a scalar, vector or matrix; the data a manifest fills in.
  ScalarType scalar;
  uint32_t components = 1;  // a vector's size, a matrix's rows: vec3 and mat4x3's columns are 3
  uint32_t columns = 1;     // a matrix's columns; 1 for anything else
  // An array's element count. An array sized by a specialization constant has the constant's
  // default here and its SpecId in length_constant_id: the real length is known only once the
  // pipeline is specialised, so a check must use the manifest's value for that constant.
  uint32_t length = 0;
  std::optional<uint32_t> length_constant_id;
  // Bytes between an array's elements and a matrix's columns (rows when row-major), from the
  // decorations: a vec3 array in std430 has a stride of 16, not 12. 0 where the SPIR-V gives none.
  uint32_t array_stride = 0, matrix_stride = 0;
  bool row_major = false;
  // Bytes the type occupies in the block: a vector's components, a matrix's columns (rows) times
  // its stride, an array's length times its stride, a struct's last byte of any member (not rounded
  // up: the next member's Offset says where it starts). 0 for a runtime array, whose size is the
  // buffer's, and for a type that cannot be in a block.
  uint32_t size = 0;
  // The type as GLSL with GL_EXT_shader_explicit_arithmetic_types spells it ("float", "f16vec2",
  // "uint8_t", "i64vec4", "dmat3", "mat2x4", "Particle", "vec4[8]", "float[]"), for messages and
  // for matching a manifest's element type. A struct is its OpName ("" when the module has no
  // names; its members are named even then, see Member); an image or sampler is its GLSL opaque
  // type ("image2D", "usamplerBuffer", "texture2D").
  std::string glsl;
  std::vector<Member> members;          // kStruct, in declaration order
  std::shared_ptr<TypeLayout> element;  // kArray and kRuntimeArray (shared: the types are read-only)
};

struct Member {
  // OpMemberName. A member the SPIR-V does not name (a module compiled without debug names, or one
  // that names some members only) is named by its position in its struct: "_m" and its member index
  // from 0 in declaration order ("_m0", "_m1", ...; SPIRV-Cross gives such members the same names),
  // and is `positional`. Every user of the reflection (manifests, checks, capture) takes that name
  // as it takes a real one; MemberNameClash finds a positional name that repeats a real one.
  std::string name;
  uint32_t offset = 0;
  TypeLayout type;
  bool positional = false;
};

// The first two members of one struct with the same name, anywhere in `members` and the structs
// they hold (nested, or as array elements): a real name that repeats a positional one ("_m2" given
// by the shader to member 0 while member 2 has no name) or a module that names two members alike.
// Says which members and why, with `what` (the struct's description) in front; nullopt where every
// struct's member names are distinct. Users of member names refuse such a struct with it, so that
// no name stands for two members.
std::optional<std::string> MemberNameClash(const std::vector<Member>& members, const std::string& what);

enum class ResourceKind {
  kStorageBuffer,
  kUniformBuffer,
  kStorageImage,
  kSampledImage,
  kCombinedImageSampler,
  kSampler,
  kUniformTexelBuffer,
  kStorageTexelBuffer,
  kOther,  // a descriptor csbench does not bind (an acceleration structure, an input attachment)
};

// "storage buffer", "uniform buffer", "storage image", "sampled image", "combined image sampler",
// "sampler", "uniform texel buffer", "storage texel buffer", "other": the words messages use.
std::string_view KindName(ResourceKind kind);

// One binding of a descriptor set.
struct Resource {
  uint32_t set = 0, binding = 0;  // a variable without DescriptorSet is in set 0, as Vulkan reads it
  ResourceKind kind = ResourceKind::kOther;
  std::string variable;  // the variable's OpName ("" for GLSL's nameless blocks and stripped modules)
  std::string block;     // a buffer's block (struct) name; "" for images, samplers and stripped modules
  // Descriptors in the binding: an array of blocks or images has its length here (the Vulkan
  // descriptorCount), 0 for a runtime-sized array (descriptor indexing), 1 for a single one.
  uint32_t count = 1;
  // NonWritable / NonReadable on the variable, or on every member of the block: compilers put
  // GLSL's readonly on one or the other, and a buffer the shader only reads needs no barrier after.
  bool readonly = false, writeonly = false;
  // What the shader's instructions do through the binding, whatever it declares (generated code
  // often declares neither readonly nor writeonly): loads and copies from it read, stores and
  // copies to it write, an atomic read-modify-write does both. A pointer into it the reading cannot
  // follow (passed to a function, chosen by OpSelect or OpPhi, converted) counts as both. Followed
  // for storage and uniform buffers; every other kind (images, texel buffers, samplers) is given both.
  bool reads = false, writes = false;
  // A buffer's block struct, with each member's offset; an image's or sampler's opaque type
  // (kOther).
  TypeLayout type;
  // Images, texel buffers and combined image samplers: what the image view must match.
  std::string image_dim;     // "1D", "2D", "3D", "Cube", "Rect", "Buffer", "SubpassData"
  std::string image_format;  // the GLSL format qualifier ("rgba8", "r32f", "rgba16ui"); "unknown" if none
  bool arrayed = false, multisampled = false, depth = false;
  ScalarType image_sampled;  // the texel type a read returns: float, int or uint (and its width)
};

// A specialization constant: what the manifest may set, and what VkSpecializationMapEntry needs.
struct SpecConstant {
  uint32_t id = 0;  // SpecId (GLSL constant_id)
  // Every OpName given to a constant with this SpecId. glslang can emit one SpecId on several
  // constants (a constant used as an array length and as a value), each named or not; they are one
  // constant to the pipeline, so they are one entry here.
  std::vector<std::string> names;
  ScalarType type;
  // The default's bits as the pipeline would see them, within the type's width (a 16-bit -1 is
  // 0xffff, a 64-bit value has its low word first in SPIR-V and is whole here; a bool is 0 or 1).
  uint64_t default_bits = 0;
};

struct LocalSize {
  // The workgroup size: a literal where the shader gives one, else the default of the
  // specialization constant the dimension is taken from.
  std::array<uint32_t, 3> literal{1, 1, 1};
  // The SpecId a dimension is taken from (GLSL local_size_x_id): the manifest's value for that
  // constant, not `literal`, is the size the dispatch will have.
  std::array<std::optional<uint32_t>, 3> constant_id;
};

struct PushBlock {
  std::string variable;  // the variable's OpName; "" if nameless or stripped
  std::string block;     // the struct's name
  // The bytes the members reach (the largest offset plus size): what vkCmdPushConstants must cover
  // and what the device's maxPushConstantsSize must allow.
  uint32_t size = 0;
  std::vector<Member> members;
};

struct ShaderInterface {
  std::string entry_point;  // the GLCompute entry point's name: the pipeline is created with it
  LocalSize local_size;
  std::vector<SpecConstant> constants;  // by SpecId
  std::vector<Resource> resources;      // by (set, binding)
  std::optional<PushBlock> push;
  // Whether the module names anything (OpName or OpMemberName). An optimised or stripped .spv has
  // no names, and a manifest can then refer to bindings and constants only by number.
  bool has_names = false;
  // OpCapability, in module order, by SPIR-V's names ("Shader", "Float16", "Int8",
  // "StorageBuffer16BitAccess", "GroupNonUniformArithmetic"); one the table does not know is
  // "Capability<number>". Each asks for a device feature, so a run can say which one is missing.
  std::vector<std::string> capabilities;
  // Whether the module has an OpArrayLength: the shader reads a runtime array's length, so a
  // buffer's bound range is part of what it computes.
  bool reads_array_length = false;
};

// The interface of the SPIR-V module `spirv` (host byte order; a byte-swapped module is also read).
// Throws Error, saying what is wrong and at which word, for words that are not a well-formed SPIR-V
// module with exactly one GLCompute entry point. Every word is bounds-checked: no input crashes it.
ShaderInterface ReflectInterface(const std::vector<uint32_t>& spirv);

}  // namespace csbench
