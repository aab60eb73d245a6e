// Stage 1, read: a resource's data files. `init = { file = "..." }` gives a [[buffer]]'s or an
// [[image]]'s initial contents from a file, `expect = { file = "..." }` the contents the kernel must
// leave in an output (a program's own data and its own result, replayed). ParseManifest only names
// them; LoadManifest finds each file, takes its size and hashes it once, and holds its size against
// the resource's at every point the manifest declares.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "harness/base/fork_join.hpp"
#include "harness/base/provenance.hpp"
#include "harness/manifest/data_files.hpp"
#include "harness/manifest/manifest.hpp"
#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench::manifest_detail {

namespace {

// A file is hashed in pieces of this size, on every host thread: the digest is the SHA-256 of the
// pieces' digests, and no more than a piece a thread is held at once (files may be hundreds of MiB).
constexpr uint64_t kHashPiece = uint64_t{16} << 20;

double ReadTolerance(const Reader& r, const toml::table& t, const std::string& key, std::string_view name) {
  const toml::node* node = t.get(name);
  const std::string full = fmt::format("{}.{}", key, name);
  if (!node->is_number()) r.Fail(Reader::LineOf(*node), full, "expected a number");
  const double value =
      node->is_integer() ? static_cast<double>(node->as_integer()->get()) : node->as_floating_point()->get();
  if (name == "tolerance" && !(value >= 0 && value < 1)) {
    r.Fail(Reader::LineOf(*node), full, "expected a relative error from 0 to below 1");
  }
  if (name == "abs_tolerance" && !(value >= 0 && std::isfinite(value))) {
    r.Fail(Reader::LineOf(*node), full, "expected an absolute error from 0");
  }
  return value;
}

// `init = { file = "..." }` or `expect = { file = "...", tolerance = ..., abs_tolerance = ... }`.
DataFile ReadFileKey(const Reader& r, const toml::node& node, const std::string& key, bool expect) {
  DataFile f{.key = key, .line = Reader::LineOf(node)};
  const toml::table* t = node.as_table();
  if (t == nullptr) {
    r.Fail(f.line, key, "expected a table: expect = { file = \"out0.bin\" } (and tolerance, abs_tolerance)");
  }
  if (expect) {
    r.OnlyKeys(*t, key, {"file", "tolerance", "abs_tolerance"});
  } else {
    r.OnlyKeys(*t, key, {"file"});
  }
  const toml::node* file = t->get("file");
  if (file == nullptr || !file->is_string() || file->as_string()->get().empty() ||
      file->as_string()->get().find('\0') != std::string::npos) {
    r.Fail(file != nullptr ? Reader::LineOf(*file) : f.line, key + ".file",
           "expected the path of a file of raw bytes, relative to the manifest's folder (or absolute)");
  }
  f.path = r.path().parent_path() / file->as_string()->get();
  if (t->get("tolerance") != nullptr) f.tolerance = ReadTolerance(r, *t, key, "tolerance");
  if (t->get("abs_tolerance") != nullptr) f.abs_tolerance = ReadTolerance(r, *t, key, "abs_tolerance");
  return f;
}

// `expect` of [[buffer]] or [[image]] table `t`, on an output only.
DataFile ReadExpect(const Reader& r, const toml::table& t, const std::string& where, bool output) {
  const toml::node* expect = t.get("expect");
  if (expect == nullptr) return {};
  if (!output) {
    r.Fail(Reader::LineOf(*expect), where + ".expect",
           "the file holds what the kernel leaves in an output: expect needs output = true");
  }
  return ReadFileKey(r, *expect, where + ".expect", true);
}

// Whether `init` is a file: a table with a `file` key.
bool FileInit(const toml::table& t) {
  const toml::node* init = t.get("init");
  return init != nullptr && init->is_table() && init->as_table()->contains("file");
}

// The SHA-256 of the SHA-256 digests of the file's pieces (kHashPiece bytes, the last shorter).
std::string FileDigest(const std::filesystem::path& path, uint64_t size, const std::string& at) {
  const size_t pieces = static_cast<size_t>(std::max<uint64_t>(1, (size + kHashPiece - 1) / kHashPiece));
  std::vector<std::string> digests(pieces);
  std::atomic<bool> failed{false};
  ParallelFor(pieces, 1, [&](size_t begin, size_t end) {
    std::ifstream in(path, std::ios::binary);
    std::string piece;
    for (size_t k = begin; k < end && !failed; ++k) {
      const uint64_t from = k * kHashPiece;
      const uint64_t n = std::min(kHashPiece, size - std::min(size, from));
      piece.resize(static_cast<size_t>(n));
      in.seekg(static_cast<std::streamoff>(from));
      in.read(piece.data(), static_cast<std::streamsize>(n));
      if (!in || static_cast<uint64_t>(in.gcount()) != n) {
        failed = true;
        return;
      }
      digests[k] = Sha256Hex(piece);
    }
  });
  if (failed) throw ManifestError{fmt::format("{}: cannot read {}", at, path.string())};
  std::string all;
  for (const std::string& d : digests) all += d;
  return Sha256Hex(all);
}

}  // namespace

bool ReadBufferFiles(const Reader& r, const toml::table& t, const std::string& where, ManifestBuffer& b) {
  b.expect = ReadExpect(r, t, where, b.output);
  if (!FileInit(t)) return false;
  const toml::node& init = *t.get("init");
  // A struct's init table names its members; a file gives every byte, so no member beside it.
  if (b.type.is_struct && init.as_table()->size() > 1) {
    r.Fail(Reader::LineOf(init), where + ".init",
           "a file gives every byte of the buffer: no member's init beside it (init = { file = \"...\" } alone)");
  }
  b.init_file = ReadFileKey(r, init, where + ".init", false);
  b.init_given = true;
  if (const toml::node* header = t.get("header")) {
    r.Fail(Reader::LineOf(*header), where + ".header",
           "the init file holds the whole buffer as it lies in memory, its header's bytes too: give no header "
           "beside it");
  }
  return true;
}

bool ReadImageFiles(const Reader& r, const toml::table& t, const std::string& where, ManifestImage& image) {
  image.expect = ReadExpect(r, t, where, image.output);
  if (!FileInit(t)) return false;
  image.init_file = ReadFileKey(r, *t.get("init"), where + ".init", false);
  image.init_given = true;
  if (image.levels > 1) {
    r.Fail(image.init_file.line, where + ".init",
           fmt::format("an init file holds level 0's texels, and the image has {} levels (levels = {}): the other "
                       "levels would start from nothing; give levels = 1",
                       image.levels, image.levels));
  }
  return true;
}

std::string LoadDataFiles(Manifest& m) {
  std::vector<DataFile*> files;
  for (ManifestBuffer& b : m.buffers) files.insert(files.end(), {&b.init_file, &b.expect});
  for (ManifestImage& image : m.images) files.insert(files.end(), {&image.init_file, &image.expect});
  std::map<std::filesystem::path, uint64_t> sizes;
  std::string digests;
  for (DataFile* f : files) {
    if (!f->Given()) continue;
    auto known = sizes.find(f->path);
    if (known == sizes.end()) {
      const std::string at = fmt::format("{}: {}.file", PathAt(m, f->line), f->key);
      std::error_code error;
      if (!std::filesystem::is_regular_file(f->path, error)) {
        throw ManifestError{fmt::format("{}: {} does not exist (or is not a file)", at, f->path.string())};
      }
      const uint64_t size = std::filesystem::file_size(f->path, error);
      if (error) throw ManifestError{fmt::format("{}: cannot read {} ({})", at, f->path.string(), error.message())};
      digests += FileDigest(f->path, size, at);
      known = sizes.emplace(f->path, size).first;
    }
    f->bytes = known->second;
  }
  return digests;
}

ResourceShape BufferShape(const ManifestBuffer& b, uint64_t count) {
  const ElementType& t = b.type;
  return {.bytes = t.array_offset + count * t.Bytes(),
          .text = fmt::format("{} element{} of {}, {} bytes each{}", count, count == 1 ? "" : "s", t.glsl, t.Bytes(),
                              t.array_offset != 0 ? fmt::format(", after a header of {} bytes", t.array_offset) : "")};
}

ResourceShape ImageShape(const ManifestImage& image, std::array<uint32_t, 3> size) {
  const uint64_t texels = uint64_t{size[0]} * size[1] * size[2];
  const std::string extent = image.arrayed  ? fmt::format("{}x{} in {} layers", size[0], size[1], size[2])
                             : image.three_d ? fmt::format("{}x{}x{}", size[0], size[1], size[2])
                                             : fmt::format("{}x{}", size[0], size[1]);
  return {.bytes = texels * image.format.TexelBytes(),
          .text = fmt::format("{} texels of {}, {} bytes each", extent, image.format.glsl, image.format.TexelBytes())};
}

std::string SizeMismatch(const DataFile& f, uint64_t file_bytes, std::string_view what, const ResourceShape& shape,
                         std::string_view at) {
  return fmt::format("{} is {} bytes, but {} is {} bytes at {} ({}): the file holds the resource as it lies in "
                     "memory",
                     f.path.string(), file_bytes, what, shape.bytes, at, shape.text);
}

void CheckDataFileSizes(const Manifest& m, const PointValues& p, const std::string& variant, Extent workgroup,
                        Extent domain) {
  if (p.counts.size() != m.buffers.size() || p.image_sizes.size() != m.images.size()) return;
  auto check = [&](const DataFile& f, const std::string& what, const ResourceShape& shape) {
    if (!f.bytes || *f.bytes == shape.bytes) return;
    const std::string at =
        fmt::format("variant {}, workgroup {}, domain {}", variant, Sized("", workgroup), Sized("", domain));
    throw ManifestError{fmt::format("{}: {}.file: {}", PathAt(m, f.line), f.key, SizeMismatch(f, *f.bytes, what, shape, at))};
  };
  for (size_t i = 0; i < m.buffers.size(); ++i) {
    const ManifestBuffer& b = m.buffers[i];
    if (!b.init_file.bytes && !b.expect.bytes) continue;
    const ResourceShape shape = BufferShape(b, p.counts[i]);
    const std::string what = fmt::format("buffer {}", Quoted(b.name));
    check(b.init_file, what, shape);
    check(b.expect, what, shape);
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const ManifestImage& image = m.images[k];
    if (!image.init_file.bytes && !image.expect.bytes) continue;
    const ResourceShape shape = ImageShape(image, p.image_sizes[k]);
    const std::string what = fmt::format("image {}", Quoted(image.name));
    check(image.init_file, what, shape);
    check(image.expect, what, shape);
  }
}

}  // namespace csbench::manifest_detail
