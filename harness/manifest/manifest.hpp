// A user's family declared in a TOML manifest beside their shaders: what it holds once loaded and
// checked (its resources' declarations in resources.hpp, which this header includes), and the
// numbers of one point (a variant at a workgroup and domain). The keys and
// their meanings are documented in docs/your-own-kernels.md; they are a contract with files
// other people write: keys are added, never renamed or given another meaning.
//
// Loading is in two steps, so that the parser can be fuzzed and tested without files:
// ParseManifest checks everything the text alone decides (keys, types, names, expressions over
// every point the manifest declares); LoadManifest reads the file, parses it, then compiles every
// variant's shader (GLSL, HLSL or SPIR-V), reflects its whole interface from the SPIR-V and
// resolves the manifest against it: where the workgroup goes, the specialization's types, the
// uniform and push blocks' layouts, and every descriptor the shader declares.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/base/naming.hpp"
#include "harness/manifest/resources.hpp"
#include "harness/measure/points.hpp"
#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {

// A manifest that cannot be used; `message` is one line naming the file, the key (and line where
// the TOML parser gives one) and what was expected. main prints it and exits with code 2.
struct ManifestError {
  std::string message;
};

// A part of the text a GLSL shader is compiled with after its #version line (`preamble`: the
// family's, a variant's or a pass's): the text as written, or a file beside the manifest, read
// when the manifest is loaded (ParseManifest reads no file).
struct ManifestPreamble {
  std::string key;              // "[family].preamble", for messages and the compiler's errors
  std::filesystem::path file;   // `{ file = "..." }`, resolved against the manifest's folder; empty: text
  std::string text;             // the text (a file's once loaded)
  uint32_t line = 0;
};

struct ManifestVariant {
  std::string name;
  std::filesystem::path source;  // resolved against the manifest's folder
  // How the source is compiled: its language by extension (.hlsl, .spv, else GLSL), the Vulkan
  // version it targets (`vulkan`, the family's or the variant's: "1.1" default), the folders
  // `#include` searches (`include_dirs`, relative to the manifest) and HLSL's entry point (`entry`).
  SourceLanguage language = SourceLanguage::kGlsl;
  VulkanTarget target = VulkanTarget::k1_1;
  std::vector<std::string> include_dirs;
  std::string entry = "main";
  std::vector<Define> defines;   // as written, numbers in their text
  // The preamble's parts in the order they are inserted: the family's, the variant's own, a pass's
  // own (GLSL sources only: an HLSL or SPIR-V variant or pass takes none of the family's).
  std::vector<ManifestPreamble> preamble;
  std::map<std::string, double> numeric_defines;  // those that are numbers: variables of expressions
  // Numeric defines named as a size variable (WG_X = 64): that variable must have this value at
  // every point of the variant.
  std::map<std::string, double> pinned_defines;
  bool reference = false;
  double tolerance = 1e-5;
  // An absolute bound beside the relative one (values near zero, quantised formats): a value
  // passes within either.
  double abs_tolerance = 0;
  // The family's workgroups (a variant may give its own `workgroups`).
  std::vector<Extent> workgroups;
  bool workgroups_from_family = false;  // no `workgroups` of its own: the family's (WorkgroupsOn)
  // The workgroups as expressions of SUBGROUP_SIZE (the variant's own, or the family's it takes),
  // as Manifest::workgroup_expressions; `workgroups` holds their values at the load's default, or
  // at every size of `subgroup_sizes` (VariantWorkgroupsOn).
  std::vector<std::vector<std::string>> workgroup_expressions;
  // The variant's own `domains` and `test_domains` (a project that picks a pipeline by size runs
  // each at the sizes it is used for); empty: the family's. --domain replaces them all.
  std::vector<Extent> domains;
  std::vector<Extent> test_domains;
  // The variant's own push constants where given (`[variant.push]`: `constants` or `values`), else
  // the family's [push]: a reference variant need not copy the kernel's push block.
  std::vector<std::string> push;
  NamedValues push_values;
  // Uniform contents of the variant's own (`[variant.uniform.NAME]`) or a pass's own
  // (`[variant.pass.uniform.NAME]`), by [[uniform]] name: their members over the [[uniform]]'s
  // `values`, member by member (a pass's over its variant's). UniformValues merges them.
  std::map<std::string, NamedValues> uniform_values;
  // The variant's own [dispatch] groups where given (`groups`), else the family's.
  std::array<std::string, 3> groups;
  bool own_groups = false;
  // Output buffer -> its expression: the variant's own `check` table where given, else [check].
  std::map<std::string, std::string> check;
  std::map<std::string, uint32_t> check_lines;  // where each was written, for messages
  // The variant's own `elements` and `bytes` where given (a variant that moves more or less
  // than the family's others), else the family's.
  std::string elements;
  std::string bytes;
  // The variant's own `arithmetic` where given, else the family's (empty: none declared).
  std::string arithmetic;
  // Device features the variant needs (`requires`); a device without one skips its benchmarks.
  std::vector<std::string> requires_features;
  // The shader's own specialization constants, by constant_id ("3") or name ("feed_rate"): each an
  // expression of the size variables, or "true"/"false". The family's [specialization] overridden
  // key by key by the variant's own.
  std::map<std::string, std::string> specialization;
  std::set<std::string> own_specialization;  // the keys the variant's own table gives
  // Macros the workgroup is compiled in as (`workgroup_defines`: the family's, or the variant's
  // own): WG_X, WG_Y, WG_Z's values under these names, one compile per workgroup.
  std::vector<std::string> workgroup_defines;
  uint32_t line = 0;
  // Where the workgroup goes, from the shader's reflection (LoadManifest): the specialization
  // constant each dimension's size is taken from (nullopt: a literal or a define). Until a
  // shader is reflected, constants 0 and 1, as the manifests before reflection had it.
  std::array<std::optional<uint32_t>, 3> local_size_ids{0u, 1u, std::nullopt};
  uint32_t local_size_z = 1;  // the shader's own z (workgroups are X or XxY)
  // The shader's own size where a dimension is neither a constant nor a define (0: set by either):
  // a --workgroup that differs from it cannot run.
  std::array<uint32_t, 2> literal_local_size{0, 0};
  // The specialization as the pipeline takes it, resolved against the shader (LoadManifest): each
  // constant's id, its type's bytes, whether it is a bool, float or signed, and its expression.
  struct Constant {
    uint32_t id = 0;
    uint32_t bytes = 4;
    char kind = 'u';  // 'b' bool, 'i' signed, 'u' unsigned, 'f' float
    std::string text;  // the expression, or "true"/"false"
    std::string key;   // as written, for messages
  };
  std::vector<Constant> constants;
  // Resolved against the shader (LoadManifest): the push block's fields where [push] gives values
  // by name, and each [[uniform]]'s fields and block size.
  std::vector<BlockField> push_fields;
  uint32_t push_size = 0;
  std::vector<std::string> capabilities;  // the SPIR-V capabilities the shader declares
  // The shader reads a runtime array's length (OpArrayLength, GLSL's .length()): a guard bound
  // inside the range would change what it reads, so --guard=auto keeps it after the range.
  bool reads_length = false;
  // An expression of the variant uses SUBGROUP_SIZE: where the device's subgroup size can vary,
  // the pipeline is made to run with the size the expressions were given, unless
  // `require_subgroup_size = false` (a project that takes the driver's choice).
  bool uses_subgroup_size = false;
  bool require_subgroup_size = true;
  bool full_subgroups = false;  // `full_subgroups = true`: every subgroup of a workgroup full
  // `subgroup_sizes`: the sizes the variant runs at, each required of its pipeline in turn (the
  // variant's own, else the family's; empty: the device's choice). The family's names gain
  // /sg<N> after the domain for the union of every variant's sizes.
  std::vector<uint32_t> subgroup_sizes;
  std::vector<std::vector<BlockField>> uniform_fields;
  std::vector<uint32_t> uniform_sizes;
  // A sequence (`[[variant.pass]]`): each pass as a variant of its own (its source, defines,
  // specialization, groups and push; the rest the variant's), run in order as one timed iteration.
  // Empty: the variant is its one pass.
  std::vector<ManifestVariant> passes;
  bool is_pass = false;      // one of a variant's passes (its expressions may use P)
  std::string pass_key;      // a pass's key in messages: "[[variant]] 'v'.pass[2]"
  // A storage image the shader declares without a format, read or written: the device needs
  // shaderStorageImageReadWithoutFormat or ...WriteWithoutFormat.
  bool storage_read_without_format = false, storage_write_without_format = false;
  std::string repeat = "1";  // a pass's `repeat`: how many times in a row (P is 0 .. repeat - 1)
  // A pass's `swap`: pairs of resources (by name) that trade slots after each repetition.
  std::vector<std::pair<std::string, std::string>> swaps;
  // A pass's `bind`: resources (by name) bound at another slot for this pass alone.
  std::vector<std::pair<std::string, SlotPlace>> binds;
  // The slots the pass's shader declares (resolved at load): only those are bound for it.
  std::set<SlotPlace> declared;
  // The [axes] this variant (or pass) takes: each a macro of its value (but in a .spv, which takes
  // no macros) and, where numeric, a variable of its expressions. An axis the variant's own
  // `defines` names is not taken: its own value wins. Until a point is chosen (AtAxes), each
  // holds its axis's first value.
  std::set<std::string> axes_taken;
};

// An axis of [axes]: every benchmark takes one of its values. Numeric where every value is a
// number: then it is a variable of every expression besides a macro.
struct ManifestAxis {
  std::string name;
  std::vector<AxisValue> values;
  bool numeric = true;
  uint32_t line = 0;
};

// The contents of uniform buffer `u` for `v` (a variant or a pass): the [[uniform]]'s `values`
// with the variant's or pass's own members over them.
NamedValues UniformValues(const ManifestUniform& u, const ManifestVariant& v);

// The passes of `v`: its [[variant.pass]] tables, or `v` itself.
std::vector<const ManifestVariant*> PassesOf(const ManifestVariant& v);
// The resources some pass of `v` swaps: read and written, whatever `output` says.
std::set<std::string> Swapped(const ManifestVariant& v);

// The device features a variant may require, by the names `requires` takes.
const std::vector<std::string>& KnownFeatures();

struct Manifest {
  std::filesystem::path path;
  std::string name;
  std::vector<Extent> domains;
  std::vector<Extent> workgroups;
  std::vector<Extent> test_domains;
  // Every domain and workgroup is one-dimensional: --domain and --workgroup then give the family
  // only their values of height 1, as to the built-in one-dimensional families.
  bool one_dimensional = true;
  std::string elements = "W * H";
  std::string bytes;
  bool read_only = false;
  // The operations one dispatch does (an expression; empty: none declared), of `arithmetic_unit`:
  // "FLOP" (judged against the FP32 peak), "FLOP16" (the packed FP16 peak) or "OP" (32-bit integer
  // operations, the INT32 peak); with them the run reports bound%. `arithmetic_lower_bound`: the
  // kernel does more than the count says.
  std::string arithmetic;
  std::string arithmetic_unit = "FLOP";
  bool arithmetic_lower_bound = false;
  std::vector<ManifestBuffer> buffers;  // by binding, 0..N-1
  std::vector<ManifestImage> images;    // in the order declared
  std::vector<ManifestSampler> samplers;  // [[sampler]], in the order declared
  // [require]: resource -> an expression that must be non-zero at each of its scalars.
  std::map<std::string, std::string> require;
  std::map<std::string, uint32_t> require_lines;
  std::vector<std::string> push;        // expressions, one 32-bit value each
  NamedValues push_values;              // [push] values: by member name, typed by the shader
  std::vector<ManifestUniform> uniforms;
  std::array<std::string, 3> groups;
  std::vector<ManifestVariant> variants;
  std::map<std::string, std::string> check;  // the family's [check]
  std::map<std::string, uint32_t> check_lines;
  std::map<std::string, std::string> specialization;  // the family's [specialization]
  std::vector<std::string> workgroup_defines;         // the family's
  std::vector<uint32_t> subgroup_sizes;               // the family's `subgroup_sizes`
  // [family] workgroups written as expressions of SUBGROUP_SIZE (["SUBGROUP_SIZE", "4 *
  // SUBGROUP_SIZE"], or lists of dimensions [["SUBGROUP_SIZE", "4"]]): each workgroup's one to three
  // dimensions. `workgroups` holds their values at the load's default (32) until the device is
  // known (WorkgroupsOn).
  std::vector<std::vector<std::string>> workgroup_expressions;
  std::string vulkan;                                 // the family's `vulkan`, as written ("": 1.1)
  std::vector<std::string> include_dirs;              // the family's, resolved against the manifest
  std::vector<ManifestPreamble> preamble;             // the family's `preamble` (none: empty)
  // [axes], in declaration order: the names write them after the domain (and /sg<N>) as
  // /<axis><value>.
  std::vector<ManifestAxis> axes;
  // [tune] restrict: expressions over the size variables and the axes; a point where one is 0 is
  // not made.
  std::vector<std::string> restrict;
  std::vector<uint32_t> restrict_lines;
  // What the load tells the user without refusing the manifest (a capability a shader uses that
  // its variant's `requires` does not list), one line each, naming file, line and variant.
  std::vector<std::string> notes;
};

// What a check expression may read besides its fixed variables: each input buffer (and each
// output with an init, as its initial contents) by name, a struct buffer's members as
// "buffer.member".
struct CheckInput {
  size_t buffer = 0;  // an index into buffers, or into images where `image`
  int field = -1;  // a struct buffer's member (index into its type's fields); -1: the whole buffer
  std::string name;
  bool image = false;
};
std::vector<CheckInput> CheckInputs(const Manifest& manifest);
// The variables name_sum, name_min and name_max of each whole input (CheckInputs' `input`): its
// scalars' sum (in double), least and greatest, so that a reduction is checkable without a
// reference. A name another variable has already is left out.
struct CheckStat {
  size_t input = 0;
  int kind = 0;  // 0 sum, 1 min, 2 max
  std::string name;
};
std::vector<CheckStat> CheckStats(const Manifest& manifest);
// A check expression's variables: i, W, H, c (the component; another name where a buffer is called
// c), then CheckInputs' names in order, then x, y and z where the family has an image (the texel),
// then CheckStats' names, then the numeric [axes] (CheckAxes), then the header members (CheckHeaders).
std::vector<std::string> CheckVariables(const Manifest& manifest);
// The header members a check reads, the last of CheckVariables: each scalar member before a buffer's
// runtime array as "buffer.member" (a nested struct's as "buffer.outer.inner"; vectors and arrays
// are not variables), an input's as given, an output's as the kernel left it.
struct CheckHeader {
  size_t buffer = 0;
  size_t field = 0;  // into the buffer's header_fields
  std::string name;
};
std::vector<CheckHeader> CheckHeaders(const Manifest& manifest);
// The numeric [axes], in CheckVariables after the stats: each the point's value.
std::vector<std::string> CheckAxes(const Manifest& manifest);
// The functions a check expression may call: every buffer (`b(j)`, scalar j) and image (`img(x, y)`,
// `img(x, y, c)`; a 3-D image's `img(x, y, z)`, `img(x, y, z, c)`, an arrayed one's the same with z its layer; a view's
// at its level's coordinates), by name, buffers first.
std::vector<std::string> CheckFunctions(const Manifest& manifest);
// Why `text` calls a resource of `manifest` with the wrong number of arguments, if it does.
std::optional<std::string> CallProblem(const Manifest& manifest, const std::string& text);
// A struct buffer whose members, or a `header` whose members, are not known yet: the manifest is
// parsed, not loaded.
bool HasUnresolvedStruct(const Manifest& manifest);

// How variant `v` of `m` is compiled at a workgroup: its defines with the workgroup's macros
// (workgroup_defines) added, optimised for the pipeline or not (for reflection's names).
ShaderSource SourceOf(const ManifestVariant& v, Extent workgroup, bool optimize);

// A push constant's 32 bits and how it was written.
struct PushValue {
  uint32_t bits = 0;
  bool is_float = false;
};

// The numbers of one point: a variant at a workgroup and a domain.
struct PointValues {
  std::vector<uint64_t> counts;  // per buffer, elements of its type
  std::vector<std::array<uint32_t, 3>> image_sizes;  // per image: width, height, depth
  // A sequence's dispatches in order, each pass's repetitions one after another, each with its own
  // groups, push, constants and uniforms (empty: one pass, these values); and for one of them, its
  // pass and repetition (P).
  std::vector<PointValues> passes;
  uint32_t pass = 0, repetition = 0;
  std::vector<PushValue> push;
  std::array<uint64_t, 3> groups{};
  double elements = 0;
  double bytes = 0;
  double arithmetic = 0;  // 0: none declared
  std::vector<uint64_t> constants;  // per ManifestVariant::constants, its bits
  std::vector<std::byte> push_bytes;  // the push block from [push] values (empty: from `push`)
  std::vector<std::vector<std::byte>> uniforms;  // each [[uniform]]'s block
  std::vector<std::vector<std::byte>> headers;   // per buffer, its header's bytes (empty: none)
};

// The device's values of the expressions' variables SUBGROUP_SIZE (the size the pipeline runs
// with: the device's subgroupSize), VENDOR_ID and DEVICE_ID. A manifest is checked at load with
// these defaults (a subgroup of 32, ids 0), and again at registration with the device's.
struct DeviceValues {
  double subgroup_size = 32;
  double vendor_id = 0;
  double device_id = 0;
};

// `v` at the axes' values `values` (coordinates by axis name; an axis not named keeps its value):
// its macros and numeric variables of the axes it takes, in every pass.
ManifestVariant AtAxes(const ManifestVariant& v, const std::vector<Coordinate>& values);
// The axes' values of a point's coordinates (those named as an axis of `m`), in [axes] order.
std::vector<Coordinate> AxisCoordinates(const Manifest& m, const std::vector<Coordinate>& point);
// Whether every [tune] restriction holds for variant `v` (at its axes' values) at a workgroup and
// domain; throws ManifestError for a restriction that gives no number there.
bool Allowed(const Manifest& m, const ManifestVariant& v, Extent workgroup, Extent domain, const DeviceValues& device);

class PointEvaluator;
// A manifest's points evaluated over and over (registration, a restriction at each point): each
// variant's expressions parsed once, whatever the axes' values (EvaluatePoint and Allowed parse
// anew at each call). One thread at a time.
class PointEvaluations {
 public:
  explicit PointEvaluations(const Manifest& m);
  ~PointEvaluations();
  // `at`: a variant of the manifest at some axes' values (AtAxes); it must outlive the call.
  PointValues At(const ManifestVariant& at, Extent workgroup, Extent domain, const DeviceValues& device);
  bool Allowed(const ManifestVariant& at, Extent workgroup, Extent domain, const DeviceValues& device);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Workgroups written as expressions of SUBGROUP_SIZE (each one to three dimensions) at a subgroup
// size, duplicates dropped.
std::vector<Extent> WorkgroupsAt(const std::vector<std::vector<std::string>>& texts, double subgroup_size);
// The family's workgroups on a device of subgroup size `subgroup_size`: the expressions' values
// (duplicates dropped), or `m.workgroups` where they are numbers.
std::vector<Extent> WorkgroupsOn(const Manifest& m, double subgroup_size);
// A variant's: its expressions' values at `subgroup_size`, or where it lists `subgroup_sizes`, at
// each of them (a point then runs a workgroup only at the sizes that give it: WorkgroupFitsSize);
// `v.workgroups` where they are numbers.
std::vector<Extent> VariantWorkgroupsOn(const ManifestVariant& v, double subgroup_size);
// Whether variant `v` runs workgroup `wg` at subgroup size `size` (0: the device's, any).
bool WorkgroupFitsSize(const ManifestVariant& v, Extent wg, uint32_t size);

// Every subgroup size a variant of `m` lists, in the order first listed: the values of the family's
// /sg<N> axis (empty: no such axis).
std::vector<uint32_t> SubgroupAxis(const Manifest& m);

// The variables of a point: W, H, WG_X, WG_Y, SUBGROUP_SIZE, VENDOR_ID, DEVICE_ID and the
// variant's numeric defines.
std::map<std::string, double> PointVariables(const ManifestVariant& variant, Extent workgroup, Extent domain,
                                             const DeviceValues& device = {});

// Evaluates every expression of `manifest` at one point. Throws ManifestError for a value that
// is not a number, is negative or not whole where a count is meant, or too large for its use.
PointValues EvaluatePoint(const Manifest& manifest, const ManifestVariant& variant, Extent workgroup, Extent domain,
                          const DeviceValues& device = {});

// EvaluatePoint of `variant`, and of the reference variant at the same point (it runs there to
// be compared with `variant`).
void EvaluatePointAndReference(const Manifest& manifest, const ManifestVariant& variant, Extent workgroup,
                               Extent domain, const DeviceValues& device = {});

// Parses and checks `text`, the manifest at `path` (used for messages and to resolve sources;
// nothing is read). Evaluates every expression at every point the manifest declares (variants x
// workgroups x domains and test domains), so that a bad value is an error now, not a skipped
// benchmark later. Throws ManifestError.
Manifest ParseManifest(std::string_view text, const std::filesystem::path& path);

// Reads `path`, ParseManifest, then compiles each variant's source with its defines (a GLSL
// error names its file and line) and checks the buffers against the shader's storage buffers:
// every declared buffer at its binding with its element type, every binding the shader
// declares given a buffer, and no output the shader declares readonly. Throws ManifestError.
Manifest LoadManifest(const std::filesystem::path& path);

// The manifests named by --manifest: a file, or a folder's *.toml in name order. Throws
// ManifestError (a path that does not exist, a folder with no manifest, two families of one name).
std::vector<Manifest> LoadManifests(const std::vector<std::string>& paths);

}  // namespace csbench
