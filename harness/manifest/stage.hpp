// What the manifest's stages share: limits on what a manifest may declare, helpers for
// messages, and the functions one stage calls in another.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/manifest/manifest.hpp"
#include "harness/vulkan/interface.hpp"

namespace csbench::manifest_detail {

// Names a check expression or a size expression may use besides buffers and defines.
inline const std::set<std::string> kReservedNames = {"W", "H", "WG_X", "WG_Y", "SUBGROUP_SIZE", "VENDOR_ID", "DEVICE_ID", "i"};

// A buffer larger than this is no device's (and its bytes stay exact in a double).
inline constexpr double kMaxBufferBytes = 0x1p48;

// Dispatches one iteration of a sequence may make (its passes' repetitions together).
inline constexpr uint32_t kMaxDispatches = 4096;

// Points a manifest may declare: enough for any study, few enough that loading stays instant.
inline constexpr size_t kMaxPoints = 100000;

// A preamble's text (or file), and a function-like macro's parameters.
inline constexpr size_t kMaxPreambleBytes = 1 << 20;
inline constexpr size_t kMaxMacroParameters = 64;

// [axes]: how many, and how many values each.
inline constexpr size_t kMaxAxes = 16;
inline constexpr size_t kMaxAxisValues = 256;

// The element type of a storage buffer's runtime array as a manifest names it ("" for a struct,
// or for a block whose last member is not a runtime array), its member's name and its stride.
struct RuntimeArray {
  std::string element, member;
  uint32_t stride = 0;
};

std::string Quoted(std::string_view text);

// A compiler's log as one line (a manifest's error is one line): its lines joined by " | ".
std::string OneLine(std::string_view text);

// A TOML float as text that still reads as a float: with a '.', so that 2.0 stays a float push
// constant (a '.' marks one) and a float macro in GLSL, not the integer 2; "1e-06" -> "1.0e-06".
std::string FloatText(double x);

bool IsNamePart(const std::string& name);

// D and WG_Z, the third dimension's, came after the numeric defines: a define of either name keeps
// it (the variable is then under another name).
std::string ThirdDimension(const ManifestVariant& variant, const std::string& name);

std::vector<std::string> SizeVariables(const ManifestVariant& variant);

// Why `value` cannot initialise a buffer of `type`, if it cannot: an integer type takes whole numbers
// that fit its width, a 16-bit float numbers up to 65504.
std::optional<std::string> InitValueProblem(const ElementType& type, double value);

void SetAxis(ManifestVariant& v, const std::string& name, const AxisValue& value);

// Each variant (and pass) takes every axis its own defines do not name, at the axis's first value.
void TakeAxes(const Manifest& m, ManifestVariant& v);

// Every combination of the manifest's [axes] values.
std::vector<std::vector<Coordinate>> AxisCombinations(const Manifest& m);

// The manifest's path, and the line where one is known: the start of an error message.
std::string PathAt(const Manifest& m, uint32_t line);

uint64_t WholeNumber(const Manifest& m, double value, double most, std::string_view key, const std::string& text,
                     std::string_view point, std::string_view what, uint32_t line = 0);

// The element a manifest's buffer of `d` holds: its runtime array's; or, for a block of one scalar
// or vector member and no runtime array ({ uint total; }), that member as the buffer's one element
// (its stride the member's own size: the buffer holds exactly one).
RuntimeArray ElementOf(const Resource& d);

// "binding 1 (block Out, float result[])", with "set N" first where N is not 0 and the kind where
// it is not a storage buffer.
std::string Described(const Resource& d);

// ---- resolve_image.cpp

// "set 0 binding 1" (binding 1 where the set is 0), with " element E" past element 0.
std::string SlotText(SlotPlace slot);

// ", an array of 4 descriptors" for an array binding, "" for a single descriptor.
std::string ArrayText(const Resource& d);

// Image `image` against the shader's declaration `d` at one of its slots (`key` names it in messages): its usage,
// dimension, layers, texel type and format; a separate sampled image (texture2D) marks it `separate`, and may not
// carry sampler keys.
void CheckImageAt(const Manifest& m, ManifestVariant& v, ManifestImage& image, const Resource& d,
                  const std::string& key);

// Each [[sampler]] against pass (or variant) `v`'s shader: a sampler declared at its slot, and keys Vulkan allows
// with the separate images the shader may pair it with.
void CheckSamplers(const Manifest& m, const ManifestVariant& v, const ShaderInterface& shader);

// Whether the manifest's separate sampled images are of integer formats (a [[sampler]]'s border colour follows).
bool SeparateImagesInteger(const Manifest& m);

// A `type = "struct"` buffer against variant `v`'s shader: the members and stride of the struct its
// runtime array holds, or of the block itself where it has no runtime array (one element). Every
// variant's shader must lay the struct out alike (the reference's outputs are compared byte for
// byte's values with the kernel's).
void ResolveStruct(ManifestBuffer& b, SlotPlace slot, const ManifestVariant& v, const ShaderInterface& shader,
                   const std::string& key);

// The members of `d`'s block before its runtime array (a header) for buffer `b`: where the array
// starts (b.type.array_offset) and the header's scalars from `b.header` by name, a member not named
// 0. A `header` on a block with no members before a runtime array is refused; every slot and
// variant must lay the header out alike.
void ResolveHeader(ManifestBuffer& b, const Resource& d, const std::string& key);

// `shader` with each runtime-sized array of descriptors (`bufs[]`, count 0) given the number of
// elements the manifest gives at its binding (in pass `v`'s arrangement, its binds included), 0
// to N-1 with none skipped (a ManifestError names the binding and the element missing). Every
// later check then reads it as an array of N.
ShaderInterface SizedArrays(const Manifest& m, const ManifestVariant& v, const ShaderInterface& shader,
                            const std::string& where);

// Each resource's slots (buffers, then images) as the manifest declares them.
std::vector<std::vector<SlotPlace>> DeclaredSlots(const Manifest& m);

// `slots` (per resource, buffers then images: an arrangement) as pass `pass` binds them: each
// resource its `bind` names at that slot alone, and no other resource at a slot a bind takes.
std::vector<std::vector<SlotPlace>> WithBinds(const Manifest& m, const ManifestVariant& pass,
                                              std::vector<std::vector<SlotPlace>> slots);

// The push block and the uniform buffers of `v` from the manifest's values by name.
void ResolveBlocks(const Manifest& m, ManifestVariant& v, const ShaderInterface& shader, const std::string& where);

// Compiles every variant's shader at each of its workgroups (a compile error names its file and
// line), reflects it, and resolves the workgroup's place, the specialization and the buffers
// against what it declares.
void ResolveShaders(Manifest& m);

}  // namespace csbench::manifest_detail
