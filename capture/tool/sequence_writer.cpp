// A captured sequence of dispatches (--dispatches=sequence:N-M) written as one csbench manifest:
// the family declares each resource the dispatches bound once (at the slot it was first bound at,
// or a free binding where that slot is an earlier resource's), with its bytes before the first
// dispatch that binds it (inN.bin) and, for each a pass may write, after the sequence's last
// (outN.bin); its variant `captured` is the dispatches, in order, as [[variant.pass]]es, each with
// the SPIR-V of its pipeline (shader<K>.spv), its entry point, specialization, push constants, the
// program's workgroup counts, and a `bind` for the resources it bound at other slots than those
// declared.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "capture/tool/manifest_parts.hpp"

namespace csbench::capture {

namespace {

std::string Slot(const Resource& r) { return fmt::format("set {} binding {}", r.set, r.binding); }

// Why two passes' declarations of one resource cannot be one of the family's; "" when they can.
std::string Disagreement(const Resource& a, const Resource& b) {
  if (a.kind != b.kind) return fmt::format("a {} and a {}", KindName(a.kind), KindName(b.kind));
  if (a.count != b.count) return fmt::format("arrays of {} and {} descriptors", a.count, b.count);
  if (a.kind == ResourceKind::kStorageBuffer && BufferShape(a) != BufferShape(b))
    return fmt::format("blocks of {} and of {}", BufferShape(a), BufferShape(b));
  if ((a.kind == ResourceKind::kStorageImage || a.kind == ResourceKind::kCombinedImageSampler) &&
      (a.image_dim != b.image_dim || a.image_format != b.image_format || a.arrayed != b.arrayed))
    return fmt::format("images {} {} and {} {}", a.image_dim, a.image_format, b.image_dim, b.image_format);
  if (a.kind == ResourceKind::kUniformBuffer) {
    bool same = a.type.size == b.type.size && a.type.members.size() == b.type.members.size();
    for (size_t m = 0; same && m < a.type.members.size(); ++m)
      same = a.type.members[m].name == b.type.members[m].name && a.type.members[m].offset == b.type.members[m].offset &&
             a.type.members[m].type.glsl == b.type.members[m].type.glsl;
    if (!same) return "uniform blocks of other members";
  }
  return "";
}

}  // namespace

Written WriteSequence(const RawCapture& capture, const std::filesystem::path& raw_dir, const Chosen& chosen,
                      const std::filesystem::path& folder, const std::string& family, const std::string& command,
                      const std::map<uint32_t, std::string>& hashes) {
  Written written;
  std::filesystem::create_directories(folder);
  for (const std::string& note : capture.notes)
    if (note.starts_with("not captured:")) written.skipped.push_back(note.substr(14));
  if (capture.steps.size() != chosen.steps.size() && written.skipped.empty())
    written.skipped.push_back(fmt::format("pass 2 saw {} of the sequence's {} dispatches", capture.steps.size(),
                                          chosen.steps.size()));
  // One SPIR-V file per pipeline, and its interface.
  std::map<uint32_t, ShaderInterface> shaders;
  for (const RawStep& step : capture.steps) {
    if (shaders.contains(step.pipeline)) continue;
    WriteFile(folder / fmt::format("shader{}.spv", step.pipeline), reinterpret_cast<const uint8_t*>(step.spirv.data()),
              step.spirv.size() * 4);
    Written own;
    std::optional<ShaderInterface> shader = Reflect(step.spirv, own);
    for (const std::string& why : own.skipped) written.skipped.push_back(fmt::format("pipeline {}: {}", step.pipeline, why));
    if (shader) shaders[step.pipeline] = *shader;
  }
  if (!written.skipped.empty()) return written;

  // The family's resources: each the capture's bindings hold, once, at the slot the layer declared
  // it at, with the declaration of the first pass that bound it. Every pass that binds a resource
  // must declare it alike; it is read-only where every such pass reads it only. A pass's slots
  // that hold another resource than the declared one become its `bind`.
  std::vector<std::optional<Resource>> held(capture.bindings.size());
  std::vector<uint32_t> held_by(capture.bindings.size());  // the first pipeline to bind each
  std::set<std::pair<uint32_t, uint32_t>> declared;
  // Whether some pass's instructions read, and write, each resource; and whether a pass reads it
  // before (or as) it is first written, or writes it after the first pass that binds it, where
  // its bytes before the sequence can reach a later iteration (the restore rule, below).
  std::vector<bool> reads(capture.bindings.size()), writes(capture.bindings.size());
  std::vector<bool> bound(capture.bindings.size()), read_first(capture.bindings.size()),
      written_later(capture.bindings.size());
  for (const RawStep& step : capture.steps) {
    for (const Resource& r : shaders[step.pipeline].resources) declared.insert({r.set, r.binding});
    for (const std::array<uint32_t, 4>& at : step.slots) {
      const uint32_t set = at[0], binding = at[1], element = at[2], index = at[3];
      const std::vector<Resource>& resources = shaders[step.pipeline].resources;
      auto r = std::find_if(resources.begin(), resources.end(),
                            [&](const Resource& d) { return d.set == set && d.binding == binding; });
      if (r == resources.end() || index >= held.size()) continue;
      reads[index] = reads[index] || r->reads;
      writes[index] = writes[index] || r->writes;
      if (!bound[index]) {
        bound[index] = true;
        read_first[index] = r->reads;
      } else {
        written_later[index] = written_later[index] || r->writes;
      }
      const RawBinding& b = capture.bindings[index];
      const bool moved = b.set != set || b.binding != binding || b.element != element;
      const bool at_uniform = std::any_of(held.begin(), held.end(), [&](const std::optional<Resource>& u) {
        return u && u->kind == ResourceKind::kUniformBuffer && u->set == set && u->binding == binding;
      });
      if ((moved && r->kind == ResourceKind::kUniformBuffer) || (r->kind != ResourceKind::kUniformBuffer && at_uniform)) {
        written.skipped.push_back(fmt::format("set {} binding {}: a uniform buffer bound at another slot than an earlier "
                                              "dispatch's, or where another resource was (a manifest's [[uniform]] "
                                              "stays at one slot)",
                                              set, binding));
        continue;
      }
      if (!held[index]) {
        Resource own = *r;
        if (moved) {
          // At a free binding: one descriptor of its own.
          own.set = b.set;
          own.binding = b.binding;
          own.count = 1;
        }
        held[index] = own;
        held_by[index] = step.pipeline;
        continue;
      }
      if (std::string why = Disagreement(*held[index], *r); !why.empty()) {
        written.skipped.push_back(fmt::format("{} (set {} binding {}): pipelines {} and {} declare {} there", Slot(*r),
                                              b.set, b.binding, held_by[index], step.pipeline, why));
        continue;
      }
      held[index]->readonly = held[index]->readonly && r->readonly;
      held[index]->writeonly = held[index]->writeonly && r->writeonly;
    }
  }
  TakeNotes(capture.notes, declared, written);
  // A combined image sampler a pass declares and the layer could not capture (its sampler, its
  // image) leaves the sequence without a manifest, saying why.
  for (const RawStep& step : capture.steps)
    for (const Resource& r : shaders[step.pipeline].resources) {
      if (r.kind == ResourceKind::kSampler) {
        const std::string line =
            fmt::format("set {} binding {}: a separate sampler in a sequence, which is not captured yet", r.set,
                        r.binding);
        if (std::find(written.skipped.begin(), written.skipped.end(), line) == written.skipped.end())
          written.skipped.push_back(line);
      }
      if (r.kind != ResourceKind::kCombinedImageSampler && r.kind != ResourceKind::kSampledImage) continue;
      std::set<uint32_t> seen;
      for (const std::array<uint32_t, 4>& at : step.slots)
        if (at[0] == r.set && at[1] == r.binding) seen.insert(at[2]);
      SampledLeftOut(r, capture, seen, written);
    }
  if (!written.skipped.empty()) return written;
  Files files{.folder = folder};
  // The writer restores a resource read and written. In a sequence, one that the first pass to
  // bind it only writes, and no later pass writes, needs none: what that pass writes is the same at
  // every iteration (its inputs are), and what it leaves is never written, so stays its init; the
  // later passes read the same bytes every time (a work buffer between two passes, VkFFT's among
  // them, whose copy back would be timed work the program does not do).
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i]) {
      held[i]->reads = reads[i] && (read_first[i] || written_later[i]);
      held[i]->writes = writes[i];
    }
  ResourceText text;
  const Wording wording{.before = "the dispatch of the sequence that first binds it",
                        .after = "the program's sequence",
                        .writer = "a pass's shader",
                        .program = "the program's sequence"};
  // One resource at a time, so that each binding is written once under its own declaration, and
  // its name is known for the passes' binds.
  std::vector<std::string> names(capture.bindings.size());
  for (size_t i = 0; i < held.size(); ++i) {
    if (!held[i]) continue;
    RawCapture one;
    one.bindings = {capture.bindings[i]};
    const std::set<std::string> before = files.names;
    WriteResources({*held[i]}, one, raw_dir, files, text, written, wording);
    for (const std::string& name : files.names)
      if (!before.contains(name)) names[i] = name;
  }
  if (!files.any_output && written.skipped.empty())
    written.skipped.push_back("no pass writes a storage buffer or image: there is nothing to check");

  // The passes. Those whose local size the program's constants give take the variant's workgroup,
  // so they must agree on it; a literal local size is each pass's own.
  std::optional<std::array<uint32_t, 3>> workgroup;
  bool z_by_constant = false;
  size_t workgroup_from = 0;
  uint64_t domain = 0;
  std::vector<std::string> requirements;
  std::string passes;
  for (size_t k = 0; k < capture.steps.size(); ++k) {
    const RawStep& step = capture.steps[k];
    const ShaderInterface& shader = shaders[step.pipeline];
    const uint64_t index = chosen.steps[k].first_index;
    const ProgramLocal local = LocalOf(shader, step.spec);
    if (local.by_constants && workgroup && *workgroup != local.local)
      written.skipped.push_back(fmt::format(
          "dispatches {} and {} run at local sizes {}x{}x{} and {}x{}x{} from specialization constants: a variant's "
          "passes take one workgroup",
          chosen.steps[workgroup_from].first_index, index, (*workgroup)[0], (*workgroup)[1], (*workgroup)[2],
          local.local[0], local.local[1], local.local[2]));
    if (local.by_constants && !workgroup) {
      workgroup = local.local;
      workgroup_from = k;
      z_by_constant = shader.local_size.constant_id[2].has_value();
    }
    const auto& g = step.groups;
    domain = std::max(domain, uint64_t{g[0]} * g[1] * g[2] * local.local[0] * local.local[1] * local.local[2]);
    for (const std::string& name : RequirementsOf(shader))
      if (std::find(requirements.begin(), requirements.end(), name) == requirements.end()) requirements.push_back(name);
    Written own;
    std::string spec = SpecLines(shader, step.spec, local.ids, own);
    std::string push = PushText(shader, step.push, "variant.pass.push", own);
    CheckIndirectCounts(step.source, step.groups, capture.limits, "", own);
    for (const std::string& why : own.skipped) written.skipped.push_back(fmt::format("dispatch {}: {}", index, why));
    for (const std::string& note : own.notes) written.notes.push_back(fmt::format("dispatch {}: {}", index, note));
    auto hash = hashes.find(step.pipeline);
    passes += fmt::format(
        "\n# Dispatch {} of the program: pipeline {}, SPIR-V SHA-256 {}.\n[[variant.pass]]\nsource = "
        "\"shader{}.spv\"\nentry = \"{}\"\n{}{}# The workgroups the program dispatched.\ngroups = [\"{}\", \"{}\", "
        "\"{}\"]\n",
        index, step.pipeline, hash == hashes.end() ? "?" : hash->second, step.pipeline, step.entry,
        VulkanLines(step.spirv), IndirectComment(step.source, g), g[0], g[1], g[2]);
    std::string binds;
    for (const auto& [set, binding, element, index] : step.slots) {
      if (index >= capture.bindings.size() || names[index].empty()) continue;
      const RawBinding& b = capture.bindings[index];
      if (b.set == set && b.binding == binding && b.element == element) continue;
      binds += fmt::format("{}\"{}\" = {{ set = {}, binding = {}{} }}", binds.empty() ? "" : ", ", names[index], set,
                           binding, element != 0 ? fmt::format(", element = {}", element) : "");
    }
    if (!binds.empty())
      passes += "# The resources the program bound at other slots than those declared, for this dispatch.\nbind = {" +
                binds + "}\n";
    if (!spec.empty())
      passes += "# The constants the program set (by constant_id); the others keep their defaults.\n"
                "[variant.pass.specialization]\n" +
                spec;
    passes += push;
  }
  if (!written.skipped.empty()) return written;

  const bool counted = domain <= 4294967295ull;
  std::string manifest = fmt::format(
      "# Captured by csbench-capture from: {}\n"
      "# {}: dispatches {} to {}, one recording's, as the passes of one variant.\n"
      "# Replay: csbench --manifest=<this folder>. Each resource starts from the bytes the program's\n"
      "# buffer held before the sequence's first dispatch; each one a pass may write (intermediate\n"
      "# ones too) is checked against what the program's sequence left there after its last.\n\n"
      "[family]\nname = \"{}\"\n"
      "# One domain: the invocations of the sequence's largest dispatch{}, counted as its elements.\n"
      "domains = [\"{}\"]\nelements = \"W\"\n"
      "# Every binding's bytes once: inputs read, outputs written.\nbytes = \"{}\"\n",
      command, chosen.why, chosen.steps.front().first_index, chosen.steps.back().first_index, family,
      counted ? "" : " (too many: 2^32 - 1 instead)", counted ? domain : 4294967295ull, files.bytes);
  if (workgroup)
    manifest += fmt::format(
        "# The local size the program's specialization constants gave (dispatch {}).\nworkgroups = [\"{}x{}{}\"]\n",
        chosen.steps[workgroup_from].first_index, (*workgroup)[0], (*workgroup)[1],
        z_by_constant ? fmt::format("x{}", (*workgroup)[2]) : "");
  manifest += text.buffers + text.images + text.uniforms;
  const auto& g = capture.steps.front().groups;
  manifest += fmt::format(
      "\n# Each pass gives the workgroups of its dispatch; these are the first's.\n[dispatch]\ngroups = [\"{}\", "
      "\"{}\", \"{}\"]\n",
      g[0], g[1], g[2]);
  manifest += "\n[[variant]]\nname = \"captured\"\n";
  if (!requirements.empty()) {
    std::string list;
    for (const std::string& name : requirements) list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", name);
    manifest += "# What the shaders' SPIR-V capabilities ask of a device.\nrequires = [" + list + "]\n";
  }
  manifest += passes;
  WriteManifest(folder, manifest, written);
  return written;
}

}  // namespace csbench::capture
