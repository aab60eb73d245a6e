// The resources a manifest declares ([[buffer]], [[image]], [[uniform]]) and the types they are
// made of: element types, struct members and block fields as the shader's reflection lays them out,
// descriptor slots, image formats. manifest.hpp, which holds the family and its variants, includes
// this header; the keys are documented in docs/your-own-kernels.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/manifest/data_files.hpp"

namespace csbench {

enum class Scalar { kFloat, kInt, kUint };

// The variables an `init` expression may use, in this order (rand() is read as the last): i, the
// scalar's index (a struct member's: the element), ..., c, the component (0 for a scalar).
const std::vector<std::string>& InitVariables();
// An image's `init` variables: InitVariables', then x, y and z (the texel, z a 3-D image's slice or an arrayed image's
// layer; i is its index, c the channel).
const std::vector<std::string>& ImageInitVariables();
// An `init` expression as the expression parser takes it: each rand() a variable of its own draw.
std::string InitExpressionText(const std::string& text);

// A member of a struct element (`type = "struct"`), from the shader's reflection: a scalar, a
// vector or a fixed array of scalars, its components `component_stride` bytes apart from `offset`.
// A nested struct's members are flattened as "outer.inner".
struct StructField {
  std::string name;
  std::string glsl;
  Scalar scalar = Scalar::kFloat;
  uint32_t scalar_bytes = 4;
  uint32_t components = 1;
  uint32_t offset = 0;
  uint32_t component_stride = 4;
};

// A std430 element of a storage buffer: a scalar of 8, 16, 32 or 64 bits, or a vector of 2, 3 or 4
// of them (a 3-vector takes a 4-vector's stride in an array); or a struct ("struct"), whose members
// and stride the loader reads from the shader.
struct ElementType {
  std::string glsl;  // "float", "vec4", "uint", "float16_t", "i8vec4", "dvec3", ..., "struct"
  Scalar scalar = Scalar::kFloat;
  uint32_t components = 1;
  uint32_t scalar_bytes = 4;
  bool is_struct = false;
  std::vector<StructField> fields;  // a struct's, once resolved against the shader
  uint32_t stride = 0;              // a struct's array stride, once resolved
  // Where element 0 starts: the bytes of the members before the runtime array (a header, `{ uint
  // count; float y[]; }`), once resolved; 0 for a block of the array alone. The buffer holds the
  // header, then the elements; scalar k of the elements is at array_offset + its place.
  uint32_t array_offset = 0;
  // The array stride: the bytes one element takes (a struct's 1 until resolved, so that sizes can
  // be bounded before the shader is read).
  uint32_t Bytes() const {
    return is_struct ? std::max<uint32_t>(stride, 1) : scalar_bytes * (components == 3 ? 4 : components);
  }
  // The scalars of one element that the manifest fills and checks: a vector's components, a
  // struct's members' components in declaration order (padding is not one).
  uint32_t Lanes() const {
    if (!is_struct) return components;
    uint32_t lanes = 0;
    for (const StructField& f : fields) lanes += f.components;
    return lanes;
  }
};

// The element types a manifest may name, or none for another word.
const ElementType* FindElementType(std::string_view glsl);

// A descriptor slot: a set and a binding in it.
struct SlotPlace {
  uint32_t set = 0, binding = 0;
  // The descriptor's element in an array of descriptors (`bufs[4]`); 0 for a single one. Slots
  // order by set, binding, then element: the order of Vulkan's dynamic offsets.
  uint32_t element = 0;
  auto operator<=>(const SlotPlace&) const = default;
};

// Values by a block's member names (`[push] values`, a [[uniform]]'s `values`): each member's
// expressions, one per scalar (a vector, a matrix by columns, an array element after element).
using NamedValues = std::map<std::string, std::vector<std::string>>;

// A member's scalars as a block lays them out, resolved against the shader's reflection: where
// each of its values goes and how it is typed.
struct BlockField {
  uint32_t offset = 0;
  uint32_t bytes = 4;
  char kind = 'f';    // 'b' bool, 'i' signed, 'u' unsigned, 'f' float
  std::string text;   // the expression
  std::string key;    // "[push].values.a", for messages
};

struct ManifestBuffer {
  std::string name;
  uint32_t set = 0;  // the descriptor set (`set`, default 0); the first of `slots`
  uint32_t binding = 0;
  // Every slot the buffer sits at (`bindings = [[set, binding], ...]`, or its set and binding): a
  // shader may declare one buffer more than once.
  std::vector<SlotPlace> slots;
  ElementType type;
  std::string count;  // an expression: elements of `type`
  enum class Init { kRandom, kZero, kIota, kValue, kExpression };
  Init init = Init::kRandom;
  double value = 0;  // Init::kValue's
  // Init::kExpression's: each scalar's value from i (the scalar's index), the point's size
  // variables and rand() (a uniform draw in [0, 1) from the buffer's own seed).
  std::string init_expression;
  // A struct's `init = { member = ... }` (the members not named: random), each as a whole
  // buffer's init; a plain `init` then applies to every member.
  struct MemberInit {
    Init init = Init::kRandom;
    double value = 0;
    std::string expression;
    uint32_t line = 0;
  };
  std::map<std::string, MemberInit> member_inits;
  bool output = false;
  // An output's `init` was given: it starts from those contents instead of the poison (a buffer
  // updated in place, a histogram, an atomic sum), in the check run and in the timed loop, where
  // they then evolve from dispatch to dispatch unless `restore`.
  bool init_given = false;
  // The output's initial contents are copied back before every timed dispatch, outside its time
  // (a kernel whose cost depends on the values it updates).
  bool restore = false;
  uint32_t line = 0;  // where the [[buffer]] table starts, for messages
  // `header = { member = value, ... }`: the values of the block's members before its runtime array,
  // as a [[uniform]]'s `values` (expressions of the size variables); a member not named starts at 0.
  NamedValues header;
  bool header_given = false;
  uint32_t header_line = 0;
  // The header's scalars laid out by the shader (std430), every member's (0 where not named), once
  // resolved; `header_resolved`: the array's offset has been read from a shader.
  std::vector<BlockField> header_fields;
  bool header_resolved = false;
  DataFile init_file, expect;  // `init = { file }` (the whole buffer; then init_given), `expect`
};

// An image's texel format, by GLSL's format qualifier: its Vulkan format, channels, each channel's
// bits and how a shader reads it (a float, normalised from unsigned or signed integers, or an
// integer).
struct ImageFormat {
  std::string glsl;     // "r32f", "rgba8", "rgba8_snorm", "r32ui", ...
  uint32_t vk_format = 0;  // VkFormat
  uint32_t channels = 1;
  uint32_t channel_bytes = 4;
  enum class Kind { kFloat, kUnorm, kSnorm, kUint, kInt };
  Kind kind = Kind::kFloat;
  uint32_t TexelBytes() const { return channels * channel_bytes; }
  bool Integer() const { return kind == Kind::kUint || kind == Kind::kInt; }
};
const ImageFormat* FindImageFormat(std::string_view glsl);
const std::vector<ImageFormat>& ImageFormats();

// The most mip levels an image may have: the full chain of the largest size an image takes (65536).
inline constexpr uint32_t kMaxImageLevels = 17;

// A sampler's keys (`filter`, `address`, `border`, `unnormalized`): as VkSamplerCreateInfo takes them. A combined image
// sampler's are its [[image]]'s, a separate sampler's its [[sampler]]'s.
struct SamplerKeys {
  bool linear = false;
  std::string address = "clamp_to_edge";
  std::string border = "transparent_black";
  bool unnormalized = false;
};

// An image the manifest gives ([[image]]): a storage image (image2D), a sampled one (sampler2D, a
// combined image sampler read through the sampler its slot describes; or texture2D, a separate sampled image the shader
// pairs with a [[sampler]]); or a view of one level of another (`view`), a resource of its own in one device image with
// it. Its SamplerKeys are those of a combined image sampler.
struct ManifestImage : SamplerKeys {
  std::string name;
  std::vector<SlotPlace> slots;
  ImageFormat format;
  std::string width = "W", height = "H", depth = "1";  // expressions
  bool three_d = false;  // `depth` is not "1": a 3-D image
  // `layers`: an expression; given, the image is arrayed (image2DArray, sampler2DArray), its layers held and read as a
  // 3-D image's slices (z is the layer). Not given: "1", not arrayed.
  std::string layers = "1";
  bool arrayed = false;
  uint32_t levels = 1;  // `levels`: mip levels, level 0 the image's own size
  // `view = { image = "...", level = L }`: the view of level `view_level` of image `view_of` (an index into
  // Manifest::images); its size, format, layers, usage, sampler and init are its image's (its size that of the level).
  // -1: an image of its own.
  int view_of = -1;
  std::string view_name;  // the image's name as written
  uint32_t view_level = 0;
  bool sampled = false;  // usage = "sampled"
  // The shader declares it a separate sampled image (texture2D; found at resolve): it has no sampler of its own.
  bool separate = false;
  bool sampled_kind_known = false;  // `separate` was set by a slot's declaration
  std::string sampler_key;  // the first sampler key given (`filter` ...), or empty: a separate image takes none
  uint32_t sampler_key_line = 0;
  ManifestBuffer::Init init = ManifestBuffer::Init::kRandom;
  double value = 0;
  std::string init_expression;
  bool init_given = false;
  bool output = false;
  bool outside_zero = false;  // `outside = "zero"`: a check's read outside gives 0 (else the edge's texel)
  uint32_t line = 0;
  DataFile init_file, expect;  // `init = { file }` (level 0's texels; then init_given), `expect`
};

// A separate sampler the manifest gives ([[sampler]]): a `sampler` descriptor the shader pairs with separate sampled
// images (sampler2D(tex, smp)).
struct ManifestSampler : SamplerKeys {
  std::string name;
  SlotPlace slot;
  uint32_t line = 0;
};

// A uniform buffer the manifest gives ([[uniform]]): its contents by the block's member names,
// laid out by the shader's own std140 offsets.
struct ManifestUniform {
  std::string name;
  uint32_t set = 0, binding = 0;
  // The element of the binding's array of uniform buffers (`params[3]`); 0 for a single one.
  uint32_t element = 0;
  NamedValues values;
  uint32_t line = 0;
};

}  // namespace csbench
