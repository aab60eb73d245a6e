#include "harness/base/error.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace csbench {

Error::Error(std::string_view what, std::source_location where)
    : std::runtime_error(fmt::format("{} ({}:{})", what,
                                     std::filesystem::path(where.file_name()).filename().string(),
                                     where.line())) {}

void Require(bool condition, std::string_view what, std::source_location where) {
  if (!condition) throw Error(what, where);
}

void RequireSupport(bool condition, std::string_view what, std::source_location where) {
  if (!condition) throw Unsupported(what, where);
}

}  // namespace csbench
