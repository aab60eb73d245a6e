// Stage 2, resolve: runtime-sized arrays of descriptors (`bufs[]`, descriptor indexing), sized by
// the elements the manifest gives at their bindings.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "harness/manifest/manifest.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench::manifest_detail {

ShaderInterface SizedArrays(const Manifest& m, const ManifestVariant& v, const ShaderInterface& shader,
                            const std::string& where) {
  ShaderInterface sized = shader;
  const std::vector<std::vector<SlotPlace>> slots = WithBinds(m, v, DeclaredSlots(m));
  for (Resource& d : sized.resources) {
    if (d.count != 0) continue;
    // Every element the manifest gives at the binding, by whichever table gives it: the kind is
    // checked against the shader's afterwards, element by element, as a fixed array's.
    std::set<uint32_t> given;
    auto note = [&](const std::vector<SlotPlace>& slots) {
      for (const SlotPlace& s : slots) {
        if (s.set == d.set && s.binding == d.binding) given.insert(s.element);
      }
    };
    for (const std::vector<SlotPlace>& each : slots) note(each);
    for (const ManifestUniform& u : m.uniforms) note({{u.set, u.binding, u.element}});
    const std::string_view table = d.kind == ResourceKind::kStorageBuffer   ? "[[buffer]]"
                                   : d.kind == ResourceKind::kUniformBuffer ? "[[uniform]]"
                                                                            : "[[image]]";
    if (given.empty()) {
      throw ManifestError{
          fmt::format("{}: the shader declares {}, a runtime-sized array of descriptors, and no {} "
                      "has an element of it (its size is the number of elements given: give each "
                      "element, 0 to N-1, a {} of its own)",
                      where, Described(d), table, table)};
    }
    // Elements 0 to N-1, none skipped: the pipeline's binding has N descriptors, and one left
    // unwritten would be read through nothing.
    const uint32_t count = *given.rbegin() + 1;
    for (uint32_t e = 0; e < count; ++e) {
      if (given.contains(e)) continue;
      throw ManifestError{
          fmt::format("{}: the shader declares {}, a runtime-sized array of descriptors: elements up "
                      "to {} are given, and no {} has element {} (its size is the number of "
                      "elements given, 0 to N-1, none skipped)",
                      where, Described(d), count - 1, table, e)};
    }
    d.count = count;
  }
  return sized;
}

}  // namespace csbench::manifest_detail
