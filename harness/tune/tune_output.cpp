#include "harness/tune/tune_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string_view>

#include "harness/base/error.hpp"

namespace csbench {
namespace {

namespace fs = std::filesystem;
// Ordered, so that a point's axes stay in its name's order and a file reads top-down as written.
using Json = nlohmann::ordered_json;

// Writes `text` to `path` through a temporary file beside it and a rename, so that a reader, or a
// run interrupted halfway, finds the old file or the new one and never a part of one.
void WriteWhole(const fs::path& path, std::string_view text, std::string_view what) {
  // Static: two writes of one process at once (two outputs of one tune) need distinct temporary names.
  static std::atomic<unsigned> serial{0};
  const fs::path temp = path.parent_path() / fmt::format(".{}.{}-{}.tmp", path.filename().string(), getpid(), serial++);
  auto failure = [&](std::string_view why) {
    return Error(fmt::format("cannot write {} to {}: {}", what, path.string(), why));
  };
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw failure(std::strerror(errno));
  size_t written = 0;
  int error = 0;
  while (written < text.size() && error == 0) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno != EINTR) error = errno;
    if (n > 0) written += static_cast<size_t>(n);
  }
  // Flushed to the disk before the rename, so that a crash leaves the old file, not an empty one.
  if (error == 0 && fsync(fd) != 0) error = errno;
  if (close(fd) != 0 && error == 0) error = errno;
  std::error_code renamed;
  if (error == 0) fs::rename(temp, path, renamed);
  if (error != 0 || renamed) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw failure(error != 0 ? std::strerror(error) : renamed.message());
  }
}

// ---------------------------------------------------------------- JSON

Json AxesJson(const TunedPoint& p) {
  Json axes = Json::object();
  for (const auto& [axis, value] : p.point) axes[axis] = value;
  return axes;
}

// A first look is one repetition: its interval and count would say nothing, a thousand times.
Json LookJson(const TunedPoint& p) {
  Json j = Json::object();
  j["name"] = p.name;
  j["point"] = AxesJson(p);
  j["gelems"] = p.gelems;
  return j;
}

Json PointJson(const TunedPoint& p) {
  Json j = LookJson(p);
  j["low"] = p.low;
  j["high"] = p.high;
  j["repetitions"] = p.repetitions;
  if (p.p_vs_winner) j["p_vs_winner"] = *p.p_vs_winner;
  return j;
}

Json PointsJson(const std::vector<TunedPoint>& points, Json (*one)(const TunedPoint&)) {
  Json list = Json::array();
  for (const TunedPoint& p : points) list.push_back(one(p));
  return list;
}

Json DeviceWorkJson(const TunedDeviceWork& w) {
  Json j = Json::object();
  j["device_s"] = w.seconds;
  j["samples_s"] = w.samples;
  j["measured"] = w.measured;
  j["beyond_samples_each_s"] = w.BeyondSamplesEach();
  Json phases = Json::object();
  for (const auto& [phase, seconds] : w.phases) phases[phase + "_s"] = seconds;
  j["phases"] = std::move(phases);
  return j;
}

Json DomainJson(const TunedDomain& d, const TuneReport& report) {
  Json j = Json::object();
  j["winner"] = d.winner.name.empty() ? Json(nullptr) : PointJson(d.winner);
  j["tied"] = PointsJson(d.tied, PointJson);
  j["finalists"] = PointsJson(d.finalists, PointJson);
  Json spread = Json::object();
  spread["worst"] = d.worst;
  spread["median"] = d.median;
  spread["best"] = d.best;
  spread["evaluated"] = d.evaluated;
  spread["space"] = d.space;
  spread["failed"] = d.failed;
  spread["cached"] = d.cached;
  j["spread"] = std::move(spread);
  j["strategy"] = d.strategy;
  j["device_s"] = d.device_seconds;
  if (d.looks_device && d.race_device) {
    j["device_work"] = {{"looks", DeviceWorkJson(*d.looks_device)}, {"race", DeviceWorkJson(*d.race_device)}};
  } else {
    j["device_work"] = nullptr;
  }
  // A merged file holds domains of earlier runs beside this one's: each says what tuned it.
  j["driver"] = report.driver;
  j["revision"] = report.revision;
  j["looked"] = PointsJson(d.looked, LookJson);
  return j;
}

Json EmptyTuneJson() {
  Json root = Json::object();
  root["csbench_tune"] = kTuneJsonVersion;
  root["devices"] = Json::object();
  return root;
}

// The file at `path` to merge into: empty where there is none (or it holds only white space);
// throws where it is something else, which is never overwritten.
Json ExistingTuneJson(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) return EmptyTuneJson();
  if (error) throw Error(fmt::format("cannot read {}: {}", path.string(), error.message()));
  if (fs::is_directory(status))
    throw Error(fmt::format("cannot write tune results to {}: it is a folder", path.string()));
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) throw Error(fmt::format("cannot read {}: {}", path.string(), std::strerror(errno)));
  const std::string content = text.str();
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) return EmptyTuneJson();
  const std::string refused = fmt::format("{} is not a csbench tune file", path.string());
  Json root = Json::parse(content, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) throw Error(refused + " (not JSON); left as it is");
  if (!root.is_object() || !root.contains("csbench_tune")) {
    throw Error(refused + " (no \"csbench_tune\" key); left as it is");
  }
  if (root["csbench_tune"] != kTuneJsonVersion) {
    throw Error(fmt::format("{} is a csbench tune file of format {}, this csbench writes format {}; left as it is",
                            path.string(), root["csbench_tune"].dump(), kTuneJsonVersion));
  }
  if (!root.contains("devices") || !root["devices"].is_object()) {
    throw Error(
        fmt::format("{} is a damaged csbench tune file (\"devices\" is not an object); left as it is", path.string()));
  }
  return root;
}

// ---------------------------------------------------------------- header

enum class Kind { kInt, kLongLong, kDouble, kText };

std::optional<long long> AsInteger(std::string_view text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  // LLONG_MIN has no literal of its own (its magnitude is no long long).
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value == LLONG_MIN) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> AsNumber(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// "16x8" as {16, 8, 1}: one to three whole numbers, each a valid int.
std::optional<std::array<int, 3>> AsDims(std::string_view text) {
  std::array<int, 3> dims = {1, 1, 1};
  size_t count = 0;
  while (true) {
    const size_t x = text.find('x');
    const std::optional<long long> n = AsInteger(text.substr(0, x));
    if (!n || *n < 0 || *n > INT_MAX || count == 3) return std::nullopt;
    dims[count++] = static_cast<int>(*n);
    if (x == std::string_view::npos) return dims;
    text.remove_prefix(x + 1);
  }
}

Kind KindOf(const std::vector<std::string>& values) {
  if (values.empty()) return Kind::kText;
  bool ints = true, long_longs = true, numbers = true;
  for (const std::string& v : values) {
    const std::optional<long long> n = AsInteger(v);
    ints = ints && n && *n >= INT_MIN && *n <= INT_MAX;
    long_longs = long_longs && n;
    numbers = numbers && AsNumber(v);
  }
  return ints ? Kind::kInt : long_longs ? Kind::kLongLong : numbers ? Kind::kDouble : Kind::kText;
}

std::string_view TypeOf(Kind kind) {
  switch (kind) {
    case Kind::kInt: return "int";
    case Kind::kLongLong: return "long long";
    case Kind::kDouble: return "double";
    case Kind::kText: return "const char*";
  }
  return "?";
}

std::string DoubleLiteral(double value) {
  if (!std::isfinite(value)) return "0.0";
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// A C string literal of `text`'s bytes: anything but printable ASCII as an octal escape (three
// digits, so that no digit after it joins it), and '?' escaped so that no trigraph forms in C11.
std::string CString(std::string_view text) {
  std::string literal = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\' || c == '?') {
      literal += '\\';
      literal += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      literal += static_cast<char>(c);
    } else {
      literal += fmt::format("\\{:03o}", c);
    }
  }
  return literal + "\"";
}

std::string Literal(Kind kind, const std::optional<std::string>& value) {
  if (!value) return "0";  // a point without this axis (a null pointer for a string)
  switch (kind) {
    case Kind::kInt:
    case Kind::kLongLong: return fmt::format("{}", *AsInteger(*value));
    case Kind::kDouble: return DoubleLiteral(*AsNumber(*value));
    case Kind::kText: return CString(*value);
  }
  return "0";
}

// Text that can stand in a /* */ comment: printable ASCII, with no "*/" to end it early, no "/*"
// for -Wcomment and no "??" to make a trigraph.
std::string CommentText(std::string_view text) {
  std::string safe;
  for (unsigned char c : text) {
    const char printable = c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?';
    if (!safe.empty()) {
      const char before = safe.back();
      if ((before == '*' && printable == '/') || (before == '/' && printable == '*') ||
          (before == '?' && printable == '?')) {
        safe += ' ';
      }
    }
    safe += printable;
  }
  return safe;
}

// Names no member may take: the keywords of C11 and C++20, and macros that standard or common
// headers define and that an application's file may have included before this one.
const std::set<std::string, std::less<>>& Unnameable() {
  static const std::set<std::string, std::less<>> names = {"alignas",
                                                           "alignof",
                                                           "and",
                                                           "and_eq",
                                                           "asm",
                                                           "assert",
                                                           "auto",
                                                           "bitand",
                                                           "bitor",
                                                           "bool",
                                                           "break",
                                                           "case",
                                                           "catch",
                                                           "char",
                                                           "char16_t",
                                                           "char32_t",
                                                           "char8_t",
                                                           "class",
                                                           "co_await",
                                                           "co_return",
                                                           "co_yield",
                                                           "complex",
                                                           "compl",
                                                           "concept",
                                                           "const",
                                                           "const_cast",
                                                           "consteval",
                                                           "constexpr",
                                                           "constinit",
                                                           "continue",
                                                           "decltype",
                                                           "default",
                                                           "delete",
                                                           "do",
                                                           "double",
                                                           "dynamic_cast",
                                                           "else",
                                                           "enum",
                                                           "EOF",
                                                           "errno",
                                                           "explicit",
                                                           "export",
                                                           "extern",
                                                           "false",
                                                           "float",
                                                           "for",
                                                           "friend",
                                                           "goto",
                                                           "I",
                                                           "i386",
                                                           "if",
                                                           "imaginary",
                                                           "inline",
                                                           "int",
                                                           "linux",
                                                           "long",
                                                           "max",
                                                           "min",
                                                           "mutable",
                                                           "namespace",
                                                           "new",
                                                           "noexcept",
                                                           "noreturn",
                                                           "not",
                                                           "not_eq",
                                                           "NULL",
                                                           "nullptr",
                                                           "offsetof",
                                                           "operator",
                                                           "or",
                                                           "or_eq",
                                                           "private",
                                                           "protected",
                                                           "public",
                                                           "register",
                                                           "reinterpret_cast",
                                                           "requires",
                                                           "restrict",
                                                           "return",
                                                           "short",
                                                           "signed",
                                                           "sizeof",
                                                           "static",
                                                           "static_assert",
                                                           "static_cast",
                                                           "stderr",
                                                           "stdin",
                                                           "stdout",
                                                           "struct",
                                                           "switch",
                                                           "template",
                                                           "this",
                                                           "thread_local",
                                                           "throw",
                                                           "true",
                                                           "try",
                                                           "typedef",
                                                           "typeid",
                                                           "typename",
                                                           "union",
                                                           "unix",
                                                           "unsigned",
                                                           "using",
                                                           "virtual",
                                                           "void",
                                                           "volatile",
                                                           "wchar_t",
                                                           "while",
                                                           "xor",
                                                           "xor_eq"};
  return names;
}

// `text` made an identifier: ASCII letters and digits kept, every run of anything else one '_',
// none leading or trailing (so never a reserved _X or __), a leading digit behind a 'v', a
// keyword or standard macro followed by '_'; `fallback` where nothing is left.
std::string Identifier(std::string_view text, std::string_view fallback) {
  std::string id;
  for (unsigned char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      id += static_cast<char>(c);
    } else if (!id.empty() && id.back() != '_') {
      id += '_';
    }
  }
  while (!id.empty() && id.back() == '_') id.pop_back();
  if (id.empty()) id = fallback;
  if (id[0] >= '0' && id[0] <= '9') id = "v" + id;
  if (Unnameable().contains(id)) id += '_';
  return id;
}

// `id`, or `id` with the first free suffix _2, _3, ..., marked as taken in `taken`.
std::string Unique(const std::string& id, std::set<std::string>& taken) {
  std::string unique = id;
  for (int n = 2; !taken.insert(unique).second; ++n) unique = fmt::format("{}_{}", id, n);
  return unique;
}

// One axis of a family's struct: its members (one, or three for a workgroup) and their type.
struct Column {
  std::string axis;
  Kind kind = Kind::kText;
  bool dims = false;
  std::vector<std::string> members;
};

const std::string* ValueOf(const TunedPoint& p, const std::string& axis) {
  for (const auto& [name, value] : p.point) {
    if (name == axis) return &value;
  }
  return nullptr;
}

std::string FamilyHeader(std::string_view family, const std::string& base, const std::vector<const TunedDomain*>& rows,
                         const TuneReport& report) {
  const std::string type = "csbench_" + base + "_tuned";
  std::string out = fmt::format("/* Family \"{}\": the winner of each domain. */\n", CommentText(family));

  // The domain as three ints where every row's is whole numbers "AxBxC", else as its text.
  const bool domain_dims =
      std::all_of(rows.begin(), rows.end(), [](const TunedDomain* d) { return AsDims(d->domain).has_value(); });
  std::set<std::string> taken = {"device_key", "gelems"};
  if (domain_dims) {
    taken.insert({"domain_x", "domain_y", "domain_z"});
  } else {
    taken.insert("domain");
  }

  // The axes of every winner, in the order they first appear.
  std::vector<Column> columns;
  for (const TunedDomain* d : rows) {
    for (const auto& [axis, value] : d->winner.point) {
      if (std::none_of(columns.begin(), columns.end(), [&](const Column& c) { return c.axis == axis; })) {
        Column column;
        column.axis = axis;
        columns.push_back(std::move(column));
      }
    }
  }
  for (Column& c : columns) {
    std::vector<std::string> values;
    for (const TunedDomain* d : rows) {
      if (const std::string* v = ValueOf(d->winner, c.axis)) values.push_back(*v);
    }
    c.dims = c.axis == "workgroup" &&
             std::all_of(values.begin(), values.end(), [](const std::string& v) { return AsDims(v).has_value(); });
    c.kind = c.dims ? Kind::kInt : KindOf(values);
    if (c.dims) {
      c.members = {"wg_x", "wg_y", "wg_z"};
      for (const std::string& m : c.members) taken.insert(m);
    }
  }
  for (Column& c : columns) {
    if (!c.dims) c.members = {Unique(Identifier(c.axis, "axis"), taken)};
  }

  out += fmt::format("typedef struct {} {{\n", type);
  out += "  const char* device_key; /* csbench's key of the device it was tuned on */\n";
  out += domain_dims ? "  int domain_x, domain_y, domain_z;\n" : "  const char* domain;\n";
  for (const Column& c : columns) {
    std::string members;
    for (const std::string& m : c.members) members += (members.empty() ? "" : ", ") + m;
    const bool renamed = c.dims || c.members.front() != c.axis;
    out += fmt::format("  {} {};{}\n", TypeOf(c.kind), members,
                       renamed ? fmt::format(" /* axis \"{}\" */", CommentText(c.axis)) : "");
  }
  out += "  double gelems; /* the winner's median throughput over its race, Gelem/s */\n";
  out += fmt::format("}} {};\n\n", type);

  out += fmt::format("static const {} {}_rows[] = {{\n", type, type);
  for (const TunedDomain* d : rows) {
    std::vector<std::string> fields = {CString(report.device_key)};
    if (domain_dims) {
      const std::array<int, 3> domain = *AsDims(d->domain);
      for (int n : domain) fields.push_back(std::to_string(n));
    } else {
      fields.push_back(CString(d->domain));
    }
    for (const Column& c : columns) {
      const std::string* value = ValueOf(d->winner, c.axis);
      if (c.dims) {
        const std::array<int, 3> workgroup = value != nullptr ? *AsDims(*value) : std::array<int, 3>{0, 0, 0};
        for (int n : workgroup) fields.push_back(std::to_string(n));
      } else {
        fields.push_back(Literal(c.kind, value ? std::optional<std::string>(*value) : std::nullopt));
      }
    }
    fields.push_back(DoubleLiteral(d->winner.gelems));
    out += fmt::format("  /* {} */\n  {{{}}},\n", CommentText(d->winner.name), fmt::join(fields, ", "));
  }
  out += "};\n";
  out += fmt::format("enum {{ {}_count = {} }};\n\n", type, rows.size());
  return out;
}

}  // namespace

std::pair<double, double> MedianInterval(std::vector<double> values) {
  if (values.empty()) return {0, 0};
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  // The largest k with P(B <= k - 1) <= 2.5%, B ~ Binomial(n, 1/2): the median lies below the
  // k-th value only when fewer than k values are below it. Logarithms, so that 2^-n does not
  // underflow for long races.
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  const double log_n_factorial = std::lgamma(static_cast<double>(n) + 1);
  double below = 0;  // P(B <= k - 1)
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    below += std::exp(log_n_factorial - std::lgamma(static_cast<double>(i) + 1) -
                      std::lgamma(static_cast<double>(n - i) + 1) + log_half_n);
    if (below > 0.025) break;
    k = i + 1;
  }
  if (k == 0) return {values.front(), values.back()};  // fewer than 6 values
  return {values[k - 1], values[n - k]};
}

void WriteTuneJson(const TuneReport& report, const std::filesystem::path& path) {
  Json root = ExistingTuneJson(path);
  Json& device = root["devices"][report.device_key];
  if (!device.is_object()) device = Json::object();
  device["device"] = report.device_name;
  device["driver"] = report.driver;
  device["revision"] = report.revision;
  Json& families = device["families"];
  if (!families.is_object()) families = Json::object();
  for (const TunedDomain& d : report.domains) {
    Json& family = families[d.family];
    if (!family.is_object()) family = Json::object();
    family[d.domain] = DomainJson(d, report);
  }
  WriteWhole(path, root.dump(2) + "\n", "tune results");
}

void WriteTuneHeader(const TuneReport& report, const std::filesystem::path& path) {
  std::string out = fmt::format(
      "/* Generated by csbench (bench --tune); run it again rather than edit this file.\n"
      " * csbench revision {}; device {} (device key {}); driver {}.\n"
      " * Per family, the winner of each device and domain: the point the search found fastest, with\n"
      " * its median throughput. The runners-up the U test could not tell from a winner, every\n"
      " * finalist's interval and the spread of the search are in the JSON of --tune-out.\n"
      " * A numeric axis a winner's point lacks is 0, a string axis a null pointer. */\n",
      CommentText(report.revision), CommentText(report.device_name), CommentText(report.device_key),
      CommentText(report.driver));
  std::string guard = Identifier(path.filename().string(), "tuned");
  std::transform(guard.begin(), guard.end(), guard.begin(), [](char c) { return c >= 'a' && c <= 'z' ? c - 32 : c; });
  guard = "CSBENCH_TUNE_" + guard + "_";
  out += fmt::format("#ifndef {0}\n#define {0}\n\n", guard);

  // Families in the order the report first names them, each with the domains that have a winner.
  std::vector<std::string> families;
  std::map<std::string, std::vector<const TunedDomain*>> rows;
  for (const TunedDomain& d : report.domains) {
    if (!rows.contains(d.family)) families.push_back(d.family);
    std::vector<const TunedDomain*>& family = rows[d.family];
    if (!d.winner.name.empty()) family.push_back(&d);
  }
  std::set<std::string> taken;
  for (const std::string& family : families) {
    if (rows[family].empty()) {
      out += fmt::format("/* Family \"{}\": no point passed its check in any domain; no table. */\n\n",
                         CommentText(family));
      continue;
    }
    out += FamilyHeader(family, Unique(Identifier(family, "family"), taken), rows[family], report);
  }
  out += fmt::format("#endif /* {} */\n", guard);
  WriteWhole(path, out, "the tune header");
}

}  // namespace csbench
