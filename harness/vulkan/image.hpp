// Images in device memory (storage images, and sampled images read through a combined image
// sampler) and samplers: what a user's kernel binds beside its buffers.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan_raii.hpp>

namespace csbench {

class Context;

// What the device can do with a format in optimal tiling. `storage` and `sampled` include the
// copies both ways that Image::Upload and Download need, so that an image made with what they say
// can always be filled and read back.
struct FormatSupport {
  bool storage = false;        // a storage image
  bool sampled = false;        // a sampled image
  bool linear_filter = false;  // sampled through a linear sampler
};
FormatSupport SupportOf(const Context& context, vk::Format format);

// An image's layers and mip levels. An arrayed image's views are 2-D arrays (image2DArray, sampler2DArray), even of one
// layer; a 3-D image has one layer. Level k is max(1, extent >> k) in each dimension (a 3-D image's depth too; layers
// are not halved).
struct ImageLevels {
  bool arrayed = false;
  uint32_t layers = 1;
  uint32_t levels = 1;
};

// A 2-D (depth 1) or 3-D colour image, or an arrayed 2-D one, of one or more mip levels, in device memory. It is in
// VK_IMAGE_LAYOUT_GENERAL for its whole life (set right after creation), so that it can be a storage image and a
// sampled image without layout transitions: the harness's barriers (Commands::Barrier) are memory barriers, which cover
// images in one layout. Only Upload and Download move it, to a transfer layout and back within each of their own
// submissions.
class Image {
 public:
  // `texel_bytes`: the format's texel size, checked against it. Usage always includes TRANSFER_SRC and TRANSFER_DST;
  // `storage` and `sampled` add STORAGE and SAMPLED, at least one of them (the caller passes only those SupportOf
  // grants; the others throw Unsupported). A 2-D image has extent[2] == 1. `extent` is level 0's; an arrayed image has
  // extent[2] == 1 and `levels.layers` layers.
  Image(Context& context, vk::Format format, uint32_t texel_bytes, std::array<uint32_t, 3> extent, bool three_d,
        bool storage, bool sampled, ImageLevels levels = {});

  // Level `level`'s texels tightly packed, x fastest, then y, then z (a 3-D image's slice or an arrayed image's layer):
  // LevelBytes(level) of them. Both go through the context's staging buffer in pieces of at most kStagingBytes
  // (ImagePieces), and wait.
  void Upload(std::span<const std::byte> texels, uint32_t level = 0);
  void Download(std::span<std::byte> texels, uint32_t level = 0) const;
  // Whether level `level`'s texels are `texels` (packed as Upload takes them), compared piece by piece as they come back
  // through the staging buffer: no host copy of the image is made.
  bool Holds(std::span<const std::byte> texels, uint32_t level = 0) const;
  // Level `level` filled with the 32-bit `word` over its tightly packed bytes (byte b of the whole is byte b % 4 of the
  // word, least significant first, as a host fill of Upload's bytes would make it), the staging buffer filled by the
  // device: no host copy of the image is made or moved. `piece_bytes` (at most, and by default, kStagingBytes): the
  // pieces it goes through, less in the tests.
  void Fill(uint32_t word, uint32_t level = 0, uint64_t piece_bytes = 0);

  uint64_t bytes() const { return bytes_; }  // level 0's
  // Level `level`'s width, height and depth (an arrayed image's: its layers), and its bytes.
  std::array<uint32_t, 3> LevelExtent(uint32_t level) const;
  uint64_t LevelBytes(uint32_t level) const;
  vk::Image handle() const { return *image_; }
  // A view of level `level` and every layer (2-D, 3-D or 2-D array as the image is): what a descriptor binds, a storage
  // image one level (as Vulkan requires), a sampler LOD 0 of it.
  vk::ImageView view(uint32_t level = 0) const { return *views_.at(level); }
  uint32_t levels() const { return levels_.levels; }
  uint32_t layers() const { return levels_.layers; }
  bool arrayed() const { return levels_.arrayed; }
  std::array<uint32_t, 3> extent() const { return extent_; }
  vk::Format format() const { return format_; }
  uint32_t texel_bytes() const { return texel_bytes_; }
  bool three_d() const { return three_d_; }
  bool storage() const { return storage_; }
  bool sampled() const { return sampled_; }

 private:
  Context* context_;
  vk::Format format_;
  uint32_t texel_bytes_;
  std::array<uint32_t, 3> extent_;
  bool three_d_;
  bool storage_;
  bool sampled_;
  ImageLevels levels_;
  uint64_t bytes_;
  vk::raii::Image image_ = nullptr;
  vk::raii::DeviceMemory memory_ = nullptr;
  std::vector<vk::raii::ImageView> views_;  // per level
};

// One copy of an image's transfer: the box from `offset` of `extent` texels, whose texels are the
// `bytes` bytes from `at` of the tightly packed whole.
struct ImagePiece {
  std::array<uint32_t, 3> offset{};
  std::array<uint32_t, 3> extent{};
  uint64_t at = 0;
  uint64_t bytes = 0;
};
// The pieces of at most `piece_bytes` an image of `extent` goes through, in the order of its packed
// bytes: as many whole slices as fit, else as many whole rows of one slice (a row of the widest
// image a device makes, 16384 texels of 16 bytes, is far below kStagingBytes). Error where one row
// is larger. Upload and Download cut by kStagingBytes; the tests by less.
std::vector<ImagePiece> ImagePieces(std::array<uint32_t, 3> extent, uint32_t texel_bytes, uint64_t piece_bytes);

struct SamplerSpec {
  bool linear = false;  // the filter, for magnification and minification alike
  vk::SamplerAddressMode address = vk::SamplerAddressMode::eClampToEdge;  // in every dimension
  vk::BorderColor border = vk::BorderColor::eFloatTransparentBlack;      // for eClampToBorder
  // Coordinates in texels ([0, width) ...) rather than [0, 1): only with clamp_to_edge or
  // clamp_to_border, on a 2-D image, sampled with an explicit LOD of 0 (textureLod(s, p, 0.0)).
  bool unnormalized = false;
};

// The border colour `name` (transparent_black, opaque_black or opaque_white) in the variant an
// image's format reads: the Int ones for an integer format, whose texels a float border would not
// describe. Error for another name.
vk::BorderColor BorderFor(std::string_view name, bool integer_format);

// A sampler of one mip level (LOD 0, nearest between levels), without anisotropy or comparison.
class Sampler {
 public:
  // Throws Error for a spec Vulkan forbids (unnormalized coordinates with a repeating address
  // mode), Unsupported for an address mode the device lacks (mirror_clamp_to_edge).
  Sampler(Context& context, const SamplerSpec& spec);

  vk::Sampler handle() const { return *sampler_; }
  const SamplerSpec& spec() const { return spec_; }

 private:
  SamplerSpec spec_;
  vk::raii::Sampler sampler_ = nullptr;
};

}  // namespace csbench
