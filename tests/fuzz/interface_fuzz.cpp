// libFuzzer target for the SPIR-V interface reader: any bytes, taken as host-order words (a tail
// of fewer than 4 bytes is padded with zeros), go to ReflectInterface, which must either describe
// the module or throw Error. Any other exception, a crash, a hang or a sanitizer report is a bug: a
// user's .spv file is read by it before anything else checks it.
//
// Built only with -DCSBENCH_FUZZ=ON and clang (see tests/fuzz/CMakeLists.txt); the seeds are the
// GLSL shaders in tests/fuzz/interface_seeds/, compiled at build time.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "harness/base/error.hpp"
#include "harness/vulkan/interface.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint32_t> words((size + 3) / 4, 0);
  if (size > 0) std::memcpy(words.data(), data, size);
  try {
    const csbench::ShaderInterface shader = csbench::ReflectInterface(words);
    // Touch what was described, so that a dangling element or a wrong count shows under ASan.
    size_t members = 0;
    for (const auto& r : shader.resources) {
      members += r.type.members.size() + r.type.glsl.size() + csbench::KindName(r.kind).size();
      // Every struct's member names, real or positional, are walked as the manifest's users walk them.
      members += csbench::MemberNameClash(r.type.members, "fuzz").value_or("").size();
      for (const auto& m : r.type.members) {
        if (m.type.element) members += m.type.element->glsl.size();
      }
    }
    if (shader.push) {
      members += shader.push->members.size();
      members += csbench::MemberNameClash(shader.push->members, "fuzz").value_or("").size();
    }
    volatile size_t sink = members;
    (void)sink;
  } catch (const csbench::Error&) {
  }
  return 0;
}
