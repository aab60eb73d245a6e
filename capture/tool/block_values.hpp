// The bytes a program gave a block (a uniform buffer, push constants, a specialization
// constant) as the manifest's values: each member by name, as [[uniform]] values and
// [push.values] take them (a vector's components, a matrix's columns, an array's elements in
// one list; a struct's members as "name.member" and "name[e].member").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/vulkan/interface.hpp"

namespace csbench::capture {

// One scalar of `type` at `data` as an expression that gives its exact value ("2.5",
// "4294967295", "1" for a true bool); nullopt for a value an expression cannot give exactly (NaN,
// an infinity, an integer past 2^53).
std::optional<std::string> ScalarText(const ScalarType& type, const uint8_t* data, size_t size);

struct MemberValues {
  std::string name;                 // "scale", "light.color", "parts[1].mass"
  std::vector<std::string> values;  // one a scalar, in the manifest's order
  std::string glsl;                 // the member's type, for a comment
  // The member, or a struct around it, has no name in the SPIR-V: its name has a positional part
  // ("_m2", "_m1.scale"; Member), which the comment says.
  bool positional = false;
};

// Every member of `members` (a block at offset 0 of `data`); throws std::runtime_error naming the
// member that cannot be given (a type a manifest does not lay out, bytes past `size`, a value an
// expression cannot give) or the two members of a struct with one name (MemberNameClash).
std::vector<MemberValues> BlockValues(const std::vector<Member>& members, const uint8_t* data, size_t size);

// The values as TOML lines of a values table: `"name" = "v"` or `"name" = ["v", ...]`.
std::string ValuesToml(const std::vector<MemberValues>& values);

}  // namespace csbench::capture
