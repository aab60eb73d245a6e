// A resource's data files (`init = { file = ... }`, `expect = { file = ... }`): what a manifest
// holds of one (DataFile, a member of its buffers and images in manifest.hpp), the bytes a resource
// takes at a point, which its file must hold exactly, and the file's contents read for a case. The
// reader's side (reading the keys, finding and hashing the files) is declared in reader.hpp; both
// are in read_files.cpp, the reading for a case in case_files.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

// A resource's contents in a file (`init = { file = "in0.bin" }`), or the contents the kernel must
// leave in it (`expect = { file = "out0.bin" }`): raw little-endian bytes as the resource lies in
// memory (a buffer's header and elements; an image's level 0, row by row, layer by layer). Only
// named by ParseManifest; LoadManifest finds each file, takes its size and hashes it.
struct DataFile {
  std::filesystem::path path;  // resolved against the manifest's folder; empty: none given
  std::string key;             // "[[buffer]] 'x'.init", for messages
  uint32_t line = 0;
  std::optional<uint64_t> bytes;  // the file's size, once loaded
  // `expect`'s tolerances; not given: the variant's (`tolerance`, `abs_tolerance`).
  std::optional<double> tolerance, abs_tolerance;
  bool Given() const { return !path.empty(); }
};

struct ManifestBuffer;
struct ManifestImage;

namespace manifest_detail {

// The bytes of a resource at a point, as it lies in memory, and what they are made of (for messages).
struct ResourceShape {
  uint64_t bytes = 0;
  std::string text;  // "1024 elements of vec4, 16 bytes each, after a header of 8 bytes"
};
ResourceShape BufferShape(const ManifestBuffer& b, uint64_t count);
ResourceShape ImageShape(const ManifestImage& image, std::array<uint32_t, 3> size);

// "/path/in0.bin is 4096 bytes, but buffer 'x' is 8192 bytes at <at> (2048 elements of float ...)".
std::string SizeMismatch(const DataFile& f, uint64_t file_bytes, std::string_view what, const ResourceShape& shape,
                         std::string_view at);

// The contents of `f` for resource `what` (case_files.cpp): an Error, which fails the benchmark,
// where the file cannot be read or does not hold exactly `shape.bytes` bytes.
std::vector<std::byte> ReadDataFile(const DataFile& f, std::string_view what, const ResourceShape& shape);

}  // namespace manifest_detail

}  // namespace csbench
