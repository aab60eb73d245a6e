#pragma once

namespace csbench {

// The commit the binary was built from (12 hex digits), "-modified" when tracked files differed
// from it at build time, "unknown" outside a git checkout.
const char* Revision();

}  // namespace csbench
