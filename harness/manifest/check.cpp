// Stage 5, check: what a variant's checks compare and the names their expressions may use.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "harness/manifest/expression.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

std::vector<const ManifestVariant*> PassesOf(const ManifestVariant& v) {
  if (v.passes.empty()) return {&v};
  std::vector<const ManifestVariant*> passes;
  for (const ManifestVariant& p : v.passes) passes.push_back(&p);
  return passes;
}

NamedValues UniformValues(const ManifestUniform& u, const ManifestVariant& v) {
  NamedValues values = u.values;
  if (auto own = v.uniform_values.find(u.name); own != v.uniform_values.end()) {
    for (const auto& [member, texts] : own->second) values[member] = texts;
  }
  return values;
}

std::set<std::string> Swapped(const ManifestVariant& v) {
  std::set<std::string> names;
  for (const ManifestVariant& p : v.passes) {
    for (const auto& [a, b] : p.swaps) names.insert({a, b});
  }
  return names;
}

namespace manifest_detail {

std::vector<std::vector<SlotPlace>> DeclaredSlots(const Manifest& m) {
  std::vector<std::vector<SlotPlace>> slots;
  for (const ManifestBuffer& b : m.buffers) slots.push_back(b.slots);
  for (const ManifestImage& i : m.images) slots.push_back(i.slots);
  return slots;
}

std::vector<std::vector<SlotPlace>> WithBinds(const Manifest& m, const ManifestVariant& pass,
                                              std::vector<std::vector<SlotPlace>> slots) {
  for (const auto& [name, slot] : pass.binds) {
    for (std::vector<SlotPlace>& each : slots) std::erase(each, slot);
  }
  for (const auto& [name, slot] : pass.binds) {
    size_t r = 0;
    while (r < m.buffers.size() && m.buffers[r].name != name) ++r;
    if (r == m.buffers.size()) {
      while (r - m.buffers.size() < m.images.size() && m.images[r - m.buffers.size()].name != name) ++r;
    }
    if (r < slots.size()) slots[r] = {slot};
  }
  return slots;
}

}  // namespace manifest_detail

std::vector<CheckInput> CheckInputs(const Manifest& manifest) {
  std::vector<CheckInput> inputs;
  // An output with an init is read as its initial contents (an update in place is checked against
  // the values it updated).
  for (size_t i = 0; i < manifest.buffers.size(); ++i) {
    const ManifestBuffer& b = manifest.buffers[i];
    if (b.output && !b.init_given) continue;
    if (!b.type.is_struct) {
      inputs.push_back({.buffer = i, .name = b.name});
      continue;
    }
    for (size_t f = 0; f < b.type.fields.size(); ++f) {
      inputs.push_back({.buffer = i, .field = static_cast<int>(f), .name = b.name + "." + b.type.fields[f].name});
    }
  }
  for (size_t i = 0; i < manifest.images.size(); ++i) {
    const ManifestImage& image = manifest.images[i];
    if (image.output && !image.init_given) continue;
    inputs.push_back({.buffer = i, .name = image.name, .image = true});
  }
  return inputs;
}

namespace {

// The fixed names and the inputs' of a check expression, in CheckVariables' order before the stats.
std::vector<std::string> CheckNamesBeforeStats(const Manifest& manifest, const std::vector<CheckInput>& inputs) {
  // A buffer named c (before there was a component variable) keeps its name.
  const bool c_taken = std::any_of(inputs.begin(), inputs.end(), [](const auto& in) { return in.name == "c"; });
  std::vector<std::string> names = {"i", "W", "H", c_taken ? "csbench_component" : "c"};
  for (const CheckInput& in : inputs) names.push_back(in.name);
  if (!manifest.images.empty()) names.insert(names.end(), {"x", "y", "z"});
  return names;
}

}  // namespace

std::vector<CheckStat> CheckStats(const Manifest& manifest) {
  const std::vector<CheckInput> inputs = CheckInputs(manifest);
  std::vector<std::string> names = CheckNamesBeforeStats(manifest, inputs);
  std::vector<CheckStat> stats;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].field >= 0) continue;
    for (int kind = 0; kind < 3; ++kind) {
      const std::string name = inputs[k].name + (kind == 0 ? "_sum" : kind == 1 ? "_min" : "_max");
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      names.push_back(name);
      stats.push_back({k, kind, name});
    }
  }
  return stats;
}

std::vector<std::string> CheckVariables(const Manifest& manifest) {
  std::vector<std::string> names = CheckNamesBeforeStats(manifest, CheckInputs(manifest));
  for (const CheckStat& stat : CheckStats(manifest)) names.push_back(stat.name);
  for (const std::string& axis : CheckAxes(manifest)) names.push_back(axis);
  for (const CheckHeader& header : CheckHeaders(manifest)) names.push_back(header.name);
  return names;
}

std::vector<CheckHeader> CheckHeaders(const Manifest& manifest) {
  std::vector<CheckHeader> headers;
  for (size_t i = 0; i < manifest.buffers.size(); ++i) {
    const std::vector<BlockField>& fields = manifest.buffers[i].header_fields;
    for (size_t f = 0; f < fields.size(); ++f) {
      // A vector's or an array's scalars are keyed "member[k]": not a variable's name.
      if (fields[f].key.find('[') != std::string::npos) continue;
      headers.push_back({i, f, manifest.buffers[i].name + "." + fields[f].key});
    }
  }
  return headers;
}

std::vector<std::string> CheckAxes(const Manifest& manifest) {
  std::vector<std::string> names;
  for (const ManifestAxis& axis : manifest.axes) {
    if (axis.numeric) names.push_back(axis.name);
  }
  return names;
}

std::vector<std::string> CheckFunctions(const Manifest& manifest) {
  std::vector<std::string> names;
  for (const ManifestBuffer& b : manifest.buffers) names.push_back(b.name);
  for (const ManifestImage& image : manifest.images) names.push_back(image.name);
  return names;
}

std::optional<std::string> CallProblem(const Manifest& manifest, const std::string& text) {
  for (const FunctionCall& call : FunctionCalls(text)) {
    for (const ManifestBuffer& b : manifest.buffers) {
      if (b.name == call.name && call.arguments != 1) {
        return fmt::format("{}({} argument{}): a buffer is read as {}(j), its scalar j", call.name, call.arguments,
                           call.arguments == 1 ? "" : "s", call.name);
      }
    }
    for (const ManifestImage& image : manifest.images) {
      const int least = image.three_d || image.arrayed ? 3 : 2;
      if (image.name == call.name && (call.arguments < least || call.arguments > least + 1)) {
        return fmt::format(
            "{}({} argument{}): {}", call.name, call.arguments, call.arguments == 1 ? "" : "s",
            image.arrayed
                ? fmt::format("an image with layers is read as {0}(x, y, layer) or {0}(x, y, layer, c)", call.name)
            : image.three_d ? fmt::format("a 3-D image is read as {0}(x, y, z) or {0}(x, y, z, c)", call.name)
                            : fmt::format("an image is read as {0}(x, y) or {0}(x, y, c)", call.name));
      }
    }
  }
  return std::nullopt;
}

bool HasUnresolvedStruct(const Manifest& manifest) {
  return std::any_of(manifest.buffers.begin(), manifest.buffers.end(), [](const ManifestBuffer& b) {
    return (b.type.is_struct && b.type.fields.empty()) || (b.header_given && !b.header_resolved);
  });
}

}  // namespace csbench
