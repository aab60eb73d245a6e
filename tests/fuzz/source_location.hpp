// For the fuzz targets only, force-included (-include) before every source: clang 14 with
// libstdc++ 12 has no std::source_location (libstdc++ builds it on clang 15's
// __builtin_source_location), and harness/base/error.hpp takes one. This stand-in gives the file and
// line through the builtins clang 14 does have, so that an Error raised under the fuzzer still says
// where. A library that has the real one leaves it alone.
#pragma once

#include <cstdint>
#include <source_location>

#if !defined(__cpp_lib_source_location)
namespace std {
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(), uint_least32_t line = __builtin_LINE(),
                                           const char* function = __builtin_FUNCTION()) noexcept {
    source_location where;
    where.file_ = file;
    where.line_ = line;
    where.function_ = function;
    return where;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr uint_least32_t line() const noexcept { return line_; }
  constexpr uint_least32_t column() const noexcept { return 0; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  uint_least32_t line_ = 0;
};
}  // namespace std
#endif
