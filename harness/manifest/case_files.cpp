// A manifest case's data files: a resource's contents read from its `init` file, and each output
// compared with its `expect` file after the check run, by the comparisons the reference variant's
// outputs go through (CompareScalars, CompareImage), within the file's tolerances.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/manifest/case_parts.hpp"
#include "harness/manifest/data_files.hpp"
#include "harness/manifest/gpu_case.hpp"

namespace csbench::manifest_detail {

namespace {

// Reads `f` into `data`; or says why it cannot (unreadable, or not `shape.bytes` long).
std::optional<std::string> ReadInto(const DataFile& f, std::string_view what, const ResourceShape& shape,
                                    std::vector<std::byte>& data) {
  std::error_code error;
  const uint64_t size = std::filesystem::file_size(f.path, error);
  if (error) return fmt::format("{}: cannot read {} ({})", f.key, f.path.string(), error.message());
  // Sizes were held against every point the manifest declares when it was loaded: a point of
  // --domain's, or a file changed since, may still differ.
  if (size != shape.bytes) return fmt::format("{}: {}", f.key, SizeMismatch(f, size, what, shape, "this point"));
  data.resize(static_cast<size_t>(size));
  std::ifstream in(f.path, std::ios::binary);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size));
  if (!in || static_cast<uint64_t>(in.gcount()) != size) return fmt::format("{}: cannot read {}", f.key, f.path.string());
  return std::nullopt;
}

}  // namespace

std::vector<std::byte> ReadDataFile(const DataFile& f, std::string_view what, const ResourceShape& shape) {
  std::vector<std::byte> data;
  if (auto problem = ReadInto(f, what, shape, data)) throw Error(*problem);
  return data;
}

bool GpuCase::HasFileExpectations() const {
  const Manifest& m = *manifest_;
  return std::any_of(m.buffers.begin(), m.buffers.end(), [](const auto& b) { return b.expect.Given(); }) ||
         std::any_of(m.images.begin(), m.images.end(), [](const auto& image) { return image.expect.Given(); });
}

Comparison GpuCase::FileExpectations(const std::vector<Data>& got) const {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  // The file's contents; a file that cannot be read, or is not the output's size here, fails the check.
  auto read = [](const DataFile& f, const std::string& what, const ResourceShape& shape) {
    Data data;
    if (auto problem = ReadInto(f, what, shape, data)) throw CheckFailure{*problem};
    return data;
  };
  for (size_t i = 0; i < buffers_n; ++i) {
    const ManifestBuffer& b = m.buffers[i];
    if (!b.expect.Given()) continue;
    ++checks_on_host_;
    const Data want = read(b.expect, fmt::format("output '{}'", b.name), BufferShape(b, values_.counts[i]));
    const double tolerance = b.expect.tolerance.value_or(variant_->tolerance);
    const double abs_tolerance = b.expect.abs_tolerance.value_or(variant_->abs_tolerance);
    const std::string against = fmt::format("{}.file {}", b.expect.key, b.expect.path.string());
    // The header's members first, each as a header's check compares it: an integer exactly, a float
    // within the tolerances.
    for (const BlockField& f : b.header_fields) {
      const double g = HeaderValue(f, got[i]), w = HeaderValue(f, want);
      const double error =
          f.kind == 'f' ? FloatError(g, w, abs_tolerance) : (g == w ? 0.0 : std::numeric_limits<double>::infinity());
      if (f.kind == 'f' ? error <= tolerance : error == 0) continue;
      return {.max_relative_error = error,
              .message = fmt::format("output '{}' header member {}: got {}, want {} ({})", b.name, f.key, g, w, against)};
    }
    Comparison c = CompareBuffers(b, got[i], want, tolerance, abs_tolerance, against);
    if (!c.passed) return c;
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const ManifestImage& image = m.images[k];
    if (!image.expect.Given()) continue;
    ++checks_on_host_;
    const size_t r = buffers_n + k;
    const Data want_data = read(image.expect, fmt::format("output image {}", ImageLabel(k)),
                                ImageShape(image, values_.image_sizes[k]));
    const Reading want_reading = ReadingOfData(want_data, r);
    const Reading got_reading = ReadingOf(got, r);
    const std::array<double, 2> tolerances = {image.expect.tolerance.value_or(variant_->tolerance),
                                              image.expect.abs_tolerance.value_or(variant_->abs_tolerance)};
    Comparison c = CompareImageWith(
        k, got_reading, std::min(want_reading.scalars, got_reading.scalars),
        [&](size_t j) { return want_reading.At(j); },
        fmt::format("{}.file {}", image.expect.key, image.expect.path.string()), nullptr, tolerances);
    if (!c.passed) return c;
  }
  return {.passed = true};
}

}  // namespace csbench::manifest_detail
