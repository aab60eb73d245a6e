#include "harness/vulkan/image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <vector>
#include <vulkan/vulkan_format_traits.hpp>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {

constexpr vk::ImageSubresourceRange kWholeImage{.aspectMask = vk::ImageAspectFlagBits::eColor,
                                                .baseMipLevel = 0,
                                                .levelCount = VK_REMAINING_MIP_LEVELS,
                                                .baseArrayLayer = 0,
                                                .layerCount = VK_REMAINING_ARRAY_LAYERS};

// A piece's copy: its box of level `level` from the staging buffer's offset 0, tightly packed (bufferRowLength and
// bufferImageHeight 0); an arrayed image's pieces are whole layers, their z the layers.
vk::BufferImageCopy RegionOf(const ImagePiece& piece, uint32_t level, bool arrayed) {
  return {.bufferOffset = 0,
          .bufferRowLength = 0,
          .bufferImageHeight = 0,
          .imageSubresource = {.aspectMask = vk::ImageAspectFlagBits::eColor,
                               .mipLevel = level,
                               .baseArrayLayer = arrayed ? piece.offset[2] : 0,
                               .layerCount = arrayed ? piece.extent[2] : 1},
          .imageOffset = {.x = 0,
                          .y = static_cast<int32_t>(piece.offset[1]),
                          .z = arrayed ? 0 : static_cast<int32_t>(piece.offset[2])},
          .imageExtent = {.width = piece.extent[0], .height = piece.extent[1], .depth = arrayed ? 1 : piece.extent[2]}};
}

// Records the image's move from `from` to `to`, after every earlier shader or transfer access and
// before every later one (the harness's barriers are memory barriers, which move no layout).
void Transition(Commands& c, vk::Image image, vk::ImageLayout from, vk::ImageLayout to) {
  using A = vk::AccessFlagBits;
  using S = vk::PipelineStageFlagBits;
  const vk::AccessFlags all = A::eShaderRead | A::eShaderWrite | A::eTransferRead | A::eTransferWrite;
  vk::ImageMemoryBarrier barrier{.srcAccessMask = from == vk::ImageLayout::eUndefined ? vk::AccessFlags{} : all,
                                 .dstAccessMask = all,
                                 .oldLayout = from,
                                 .newLayout = to,
                                 .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                 .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                 .image = image,
                                 .subresourceRange = kWholeImage};
  c.raw().pipelineBarrier(S::eComputeShader | S::eTransfer, S::eComputeShader | S::eTransfer, {}, {}, {}, barrier);
}

}  // namespace

std::vector<ImagePiece> ImagePieces(std::array<uint32_t, 3> extent, uint32_t texel_bytes, uint64_t piece_bytes) {
  const uint64_t row = uint64_t{extent[0]} * texel_bytes;
  const uint64_t slice = row * extent[1];
  Require(row > 0 && slice > 0 && extent[2] > 0, "the pieces of an empty image");
  Require(row <= piece_bytes, fmt::format("a row of {} bytes is larger than a piece of {} bytes", row, piece_bytes));
  std::vector<ImagePiece> pieces;
  if (slice <= piece_bytes) {
    const auto slices = static_cast<uint32_t>(std::min<uint64_t>(extent[2], piece_bytes / slice));
    for (uint32_t z = 0; z < extent[2]; z += slices) {
      const uint32_t depth = std::min(slices, extent[2] - z);
      pieces.push_back({{0, 0, z}, {extent[0], extent[1], depth}, z * slice, depth * slice});
    }
    return pieces;
  }
  const auto rows = static_cast<uint32_t>(piece_bytes / row);
  for (uint32_t z = 0; z < extent[2]; ++z) {
    for (uint32_t y = 0; y < extent[1]; y += rows) {
      const uint32_t height = std::min(rows, extent[1] - y);
      pieces.push_back({{0, y, z}, {extent[0], height, 1}, z * slice + y * row, height * row});
    }
  }
  return pieces;
}

FormatSupport SupportOf(const Context& context, vk::Format format) {
  using F = vk::FormatFeatureFlagBits;
  const vk::FormatFeatureFlags features = context.physical_device().getFormatProperties(format).optimalTilingFeatures;
  const auto has = [&](vk::FormatFeatureFlags wanted) { return (features & wanted) == wanted; };
  const vk::FormatFeatureFlags copies = F::eTransferSrc | F::eTransferDst;
  return {.storage = has(F::eStorageImage | copies),
          .sampled = has(F::eSampledImage | copies),
          .linear_filter = has(F::eSampledImage | F::eSampledImageFilterLinear | copies)};
}

Image::Image(Context& context, vk::Format format, uint32_t texel_bytes, std::array<uint32_t, 3> extent, bool three_d,
             bool storage, bool sampled, ImageLevels levels)
    : context_(&context),
      format_(format),
      texel_bytes_(texel_bytes),
      extent_(extent),
      three_d_(three_d),
      storage_(storage),
      sampled_(sampled),
      levels_(levels),
      bytes_(uint64_t{extent[0]} * extent[1] * extent[2] * levels.layers * texel_bytes) {
  const std::string name = vk::to_string(format);
  const std::string size = fmt::format("{}x{}x{}", extent[0], extent[1], extent[2]);
  Require(storage || sampled, fmt::format("a {} image that is neither a storage nor a sampled image", name));
  Require(extent[0] > 0 && extent[1] > 0 && extent[2] > 0, fmt::format("an empty {} image ({})", name, size));
  Require(three_d || extent[2] == 1, fmt::format("a 2-D {} image of depth {}", name, extent[2]));
  Require(levels.layers >= 1 && (levels.arrayed || levels.layers == 1) && !(three_d && levels.arrayed),
          fmt::format("a {} image of {} layers ({})", name, levels.layers,
                      three_d ? "a 3-D image has one" : "only an arrayed image has more than one"));
  const uint32_t largest = std::max({extent[0], extent[1], three_d ? extent[2] : 1u});
  Require(levels.levels >= 1 && levels.levels <= static_cast<uint32_t>(std::bit_width(largest)),
          fmt::format("a {} image of {} with {} mip levels: its full chain has {}", name, size, levels.levels,
                      std::bit_width(largest)));
  // A block-compressed format has no texel to upload one at a time.
  Require(!vk::isCompressed(format) && vk::blockSize(format) == texel_bytes,
          fmt::format("{} is not a format of {}-byte texels", name, texel_bytes));
  const FormatSupport support = SupportOf(context, format);
  RequireSupport(!storage || support.storage, fmt::format("storage images of {} (with copies both ways)", name));
  RequireSupport(!sampled || support.sampled, fmt::format("sampled images of {} (with copies both ways)", name));

  using U = vk::ImageUsageFlagBits;
  const vk::ImageUsageFlags usage = U::eTransferSrc | U::eTransferDst | (storage ? U::eStorage : vk::ImageUsageFlags{}) |
                                    (sampled ? U::eSampled : vk::ImageUsageFlags{});
  const vk::ImageType type = three_d ? vk::ImageType::e3D : vk::ImageType::e2D;
  // The format's own limits for this usage (maxExtent, maxResourceSize), which may be below the
  // device's maxImageDimension2D/3D; a combination the device lacks throws here rather than at
  // vkCreateImage, where it would be undefined.
  vk::ImageFormatProperties limits;
  try {
    limits = context.physical_device().getImageFormatProperties(format, type, vk::ImageTiling::eOptimal, usage, {});
  } catch (const vk::SystemError& e) {
    throw Unsupported(fmt::format("{} {} images with usage {}: {}", three_d ? "3-D" : "2-D", name,
                                  vk::to_string(usage), e.what()));
  }
  RequireSupport(extent[0] <= limits.maxExtent.width && extent[1] <= limits.maxExtent.height &&
                     extent[2] <= limits.maxExtent.depth,
                 fmt::format("a {} image of {}: the device's largest is {}x{}x{}", name, size, limits.maxExtent.width,
                             limits.maxExtent.height, limits.maxExtent.depth));
  uint64_t all_levels = 0;
  for (uint32_t level = 0; level < levels.levels; ++level) all_levels += LevelBytes(level);
  RequireSupport(all_levels <= limits.maxResourceSize,
                 fmt::format("a {} image of {} MiB: the device's largest is {} MiB", name, all_levels >> 20,
                             limits.maxResourceSize >> 20));
  RequireSupport(levels.layers <= limits.maxArrayLayers, fmt::format("a {} image of {} layers: the device's most is {}",
                                                                     name, levels.layers, limits.maxArrayLayers));
  RequireSupport(
      levels.levels <= limits.maxMipLevels,
      fmt::format("a {} image of {} mip levels: the device's most is {}", name, levels.levels, limits.maxMipLevels));

  image_ = CSBENCH_VK(vk::raii::Image(
      context.device(), vk::ImageCreateInfo{.imageType = type,
                                            .format = format,
                                            .extent = {.width = extent[0], .height = extent[1], .depth = extent[2]},
                                            .mipLevels = levels.levels,
                                            .arrayLayers = levels.layers,
                                            .samples = vk::SampleCountFlagBits::e1,
                                            .tiling = vk::ImageTiling::eOptimal,
                                            .usage = usage,
                                            .sharingMode = vk::SharingMode::eExclusive,
                                            .initialLayout = vk::ImageLayout::eUndefined}));
  const auto requirements = image_.getMemoryRequirements();
  const DeviceInfo& info = context.info();
  RequireSupport(requirements.size <= info.max_allocation_bytes,
                 fmt::format("a {} image of {} MiB is larger than the device's maxMemoryAllocationSize ({} MiB)", name,
                             requirements.size >> 20, info.max_allocation_bytes >> 20));
  using M = vk::MemoryPropertyFlagBits;
  memory_ = CSBENCH_VK(vk::raii::DeviceMemory(
      context.device(),
      vk::MemoryAllocateInfo{.allocationSize = requirements.size,
                             .memoryTypeIndex = context.FindMemoryType(requirements.memoryTypeBits, M::eDeviceLocal,
                                                                       M::eDeviceLocal)}));
  image_.bindMemory(*memory_, 0);
  const vk::ImageViewType view_type = levels.arrayed ? vk::ImageViewType::e2DArray
                                      : three_d      ? vk::ImageViewType::e3D
                                                     : vk::ImageViewType::e2D;
  for (uint32_t level = 0; level < levels.levels; ++level) {
    views_.push_back(CSBENCH_VK(vk::raii::ImageView(
        context.device(), vk::ImageViewCreateInfo{.image = *image_,
                                                  .viewType = view_type,
                                                  .format = format,
                                                  .subresourceRange = {.aspectMask = vk::ImageAspectFlagBits::eColor,
                                                                       .baseMipLevel = level,
                                                                       .levelCount = 1,
                                                                       .baseArrayLayer = 0,
                                                                       .layerCount = levels.layers}})));
  }

  // Into GENERAL once: its texels are undefined until the first upload (or a kernel's write), as
  // a new buffer's bytes are.
  context.Run([&](Commands& c) { Transition(c, *image_, vk::ImageLayout::eUndefined, vk::ImageLayout::eGeneral); });
}

std::array<uint32_t, 3> Image::LevelExtent(uint32_t level) const {
  Require(level < levels_.levels, fmt::format("level {} of an image of {} mip levels", level, levels_.levels));
  return {std::max(1u, extent_[0] >> level), std::max(1u, extent_[1] >> level),
          levels_.arrayed ? levels_.layers : std::max(1u, extent_[2] >> level)};
}

uint64_t Image::LevelBytes(uint32_t level) const {
  const std::array<uint32_t, 3> e = LevelExtent(level);
  return uint64_t{e[0]} * e[1] * e[2] * texel_bytes_;
}

void Image::Upload(std::span<const std::byte> texels, uint32_t level) {
  Require(texels.size() == LevelBytes(level),
          fmt::format("{} bytes uploaded to level {} of a {} image, of {} bytes", texels.size(), level,
                      vk::to_string(format_), LevelBytes(level)));
  Staging lease(*context_);
  Buffer& staging = *lease.buffer;
  // Copies in GENERAL work, but the validation layer warns of every one (for performance): each
  // piece's submission moves the image to TRANSFER_DST_OPTIMAL and back.
  using L = vk::ImageLayout;
  for (const ImagePiece& piece : ImagePieces(LevelExtent(level), texel_bytes_, staging.size())) {
    CopyBytes(staging.mapped().data(), texels.data() + piece.at, piece.bytes);
    context_->Run([&](Commands& c) {
      Transition(c, *image_, L::eGeneral, L::eTransferDstOptimal);
      c.raw().copyBufferToImage(staging.handle(), *image_, L::eTransferDstOptimal,
                                RegionOf(piece, level, levels_.arrayed));
      Transition(c, *image_, L::eTransferDstOptimal, L::eGeneral);
    });
  }
}

bool Image::Holds(std::span<const std::byte> texels, uint32_t level) const {
  if (texels.size() != LevelBytes(level)) return false;
  Staging lease(*context_);
  const Buffer& staging = *lease.buffer;
  using L = vk::ImageLayout;
  for (const ImagePiece& piece : ImagePieces(LevelExtent(level), texel_bytes_, staging.size())) {
    context_->Run([&](Commands& c) {
      Transition(c, *image_, L::eGeneral, L::eTransferSrcOptimal);
      c.raw().copyImageToBuffer(*image_, L::eTransferSrcOptimal, staging.handle(),
                                RegionOf(piece, level, levels_.arrayed));
      Transition(c, *image_, L::eTransferSrcOptimal, L::eGeneral);
    });
    if (!EqualBytes(staging.mapped().data(), texels.data() + piece.at, piece.bytes)) return false;
  }
  return true;
}

void Image::Fill(uint32_t word, uint32_t level, uint64_t piece_bytes) {
  Staging lease(*context_);
  const Buffer& staging = *lease.buffer;
  using L = vk::ImageLayout;
  const uint64_t most = piece_bytes == 0 ? staging.size() : std::min(piece_bytes, staging.size());
  for (const ImagePiece& piece : ImagePieces(LevelExtent(level), texel_bytes_, most)) {
    // A piece starts at any byte of the pattern (rows of a 1- or 2-byte format): the word rotated to it.
    const uint32_t shift = 8 * static_cast<uint32_t>(piece.at % 4);
    const uint32_t rotated = shift == 0 ? word : (word >> shift) | (word << (32 - shift));
    context_->Run([&](Commands& c) {
      c.Fill(staging, rotated, 0, (piece.bytes + 3) / 4 * 4);
      c.Barrier();
      Transition(c, *image_, L::eGeneral, L::eTransferDstOptimal);
      c.raw().copyBufferToImage(staging.handle(), *image_, L::eTransferDstOptimal,
                                RegionOf(piece, level, levels_.arrayed));
      Transition(c, *image_, L::eTransferDstOptimal, L::eGeneral);
    });
  }
}

void Image::Download(std::span<std::byte> texels, uint32_t level) const {
  Require(texels.size() == LevelBytes(level),
          fmt::format("{} bytes downloaded from level {} of a {} image, of {} bytes", texels.size(), level,
                      vk::to_string(format_), LevelBytes(level)));
  Staging lease(*context_);
  const Buffer& staging = *lease.buffer;
  using L = vk::ImageLayout;
  for (const ImagePiece& piece : ImagePieces(LevelExtent(level), texel_bytes_, staging.size())) {
    context_->Run([&](Commands& c) {
      Transition(c, *image_, L::eGeneral, L::eTransferSrcOptimal);
      c.raw().copyImageToBuffer(*image_, L::eTransferSrcOptimal, staging.handle(),
                                RegionOf(piece, level, levels_.arrayed));
      Transition(c, *image_, L::eTransferSrcOptimal, L::eGeneral);
    });
    CopyBytes(texels.data() + piece.at, staging.mapped().data(), piece.bytes);
  }
}

vk::BorderColor BorderFor(std::string_view name, bool integer_format) {
  using B = vk::BorderColor;
  if (name == "transparent_black") return integer_format ? B::eIntTransparentBlack : B::eFloatTransparentBlack;
  if (name == "opaque_black") return integer_format ? B::eIntOpaqueBlack : B::eFloatOpaqueBlack;
  if (name == "opaque_white") return integer_format ? B::eIntOpaqueWhite : B::eFloatOpaqueWhite;
  throw Error(fmt::format("border colour '{}': expected transparent_black, opaque_black or opaque_white", name));
}

Sampler::Sampler(Context& context, const SamplerSpec& spec) : spec_(spec) {
  using A = vk::SamplerAddressMode;
  // Vulkan allows unnormalized coordinates with clamping only (VkSamplerCreateInfo's
  // unnormalizedCoordinates); a driver given a repeating mode anyway does what it likes.
  Require(!spec.unnormalized || spec.address == A::eClampToEdge || spec.address == A::eClampToBorder,
          fmt::format("a sampler with unnormalized coordinates and address mode {}: only clamp_to_edge and "
                      "clamp_to_border go with unnormalized coordinates",
                      vk::to_string(spec.address)));
  if (spec.address == A::eMirrorClampToEdge) {
    // Vulkan 1.2's samplerMirrorClampToEdge, which the device enables where offered.
    const DeviceInfo& info = context.info();
    bool offered = false;
    if (info.api_version >= VK_API_VERSION_1_2) {
      offered = context.physical_device()
                    .getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features>()
                    .get<vk::PhysicalDeviceVulkan12Features>()
                    .samplerMirrorClampToEdge;
    }
    RequireSupport(offered, "the sampler address mode mirror_clamp_to_edge (Vulkan 1.2's samplerMirrorClampToEdge)");
  }
  const vk::Filter filter = spec.linear ? vk::Filter::eLinear : vk::Filter::eNearest;
  // One mip level: LOD clamped to 0, so magnification and minification read level 0 alike; the
  // same filter for both, as unnormalized coordinates require.
  sampler_ = CSBENCH_VK(vk::raii::Sampler(
      context.device(), vk::SamplerCreateInfo{.magFilter = filter,
                                              .minFilter = filter,
                                              .mipmapMode = vk::SamplerMipmapMode::eNearest,
                                              .addressModeU = spec.address,
                                              .addressModeV = spec.address,
                                              .addressModeW = spec.address,
                                              .mipLodBias = 0.0f,
                                              .anisotropyEnable = VK_FALSE,
                                              .maxAnisotropy = 1.0f,
                                              .compareEnable = VK_FALSE,
                                              .compareOp = vk::CompareOp::eNever,
                                              .minLod = 0.0f,
                                              .maxLod = 0.0f,
                                              .borderColor = spec.border,
                                              .unnormalizedCoordinates = spec.unnormalized ? VK_TRUE : VK_FALSE}));
}

}  // namespace csbench
