// The smallest manifest the manifest tests share: a 1-D family of one variant over `k.comp`, an
// input x and an output out checked to equal it.
#pragma once

#include <string_view>

namespace csbench::testing {

inline constexpr std::string_view kOneVariant = R"toml([family]
name = "one"
domains = ["1024", "64"]
workgroups = ["64"]
bytes = "8 * W"

[[buffer]]
name = "x"
binding = 0
type = "float"
count = "W"

[[buffer]]
name = "out"
binding = 1
type = "float"
count = "W"
output = true

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "v"
source = "k.comp"

[check]
out = "x"
)toml";

}  // namespace csbench::testing
