// A small Vulkan compute program for the capture test, written as an application would be: three
// compute pipelines (scale: a local size and a scale by specialization constants, n and an offset
// by push constants; accumulate: a literal local size, in place, a uniform buffer; invert: an
// rgba8 storage image in place), dispatched at a few sizes.
//
//   capture_demo [--exit=N] [--no-dispatch] [--indirect] [--indirect-zero] [--rerecord=K] [--sleep=S] [--chain]
//                [--chain-fill] [--chain-alias] [--sampled] [--sampled-uv] [--push-descriptors] [--secondary]
//                [--secondary-twice] [--sampled-separate]
//
// It checks its own results and exits 0, or N where --exit says so (after its dispatches).
// --no-dispatch makes a device and no dispatch; --indirect makes two more pipelines (counts and
// spread, made last) and ends each round with two dependent dispatches: counts writes the
// workgroup counts for 2048 elements (32, 1, 1) into a buffer whose host-written counts are
// (1, 1, 1) before every round, then, after a barrier, spread is dispatched indirectly from that
// buffer, which it also reads as a storage buffer; --indirect-zero does the same with counts for 0
// elements (a dispatch of 0 workgroups); --rerecord
// records each round's command buffer K more times before it submits it; --sleep waits S seconds
// before exiting (a program that hangs, for the capture's timeout). --chain makes a fourth
// pipeline (chain: total += weight * y) and, after the rounds, records one command buffer of three
// dependent dispatches with barriers between them: scale (x to y), then chain twice (y into
// total, weights 0.5 and 0.25), the dispatches 10 to 12; --chain-fill adds a vkCmdFillBuffer of an
// unrelated buffer between the two chain dispatches; --chain-alias binds the chain dispatches'
// y as its first kN - 64 elements, a range that overlaps the scale's whole y without being it.
// --sampled makes one more pipeline (sample, made last) and ends each round with its dispatch of
// 4x3 workgroups: an rgba8 texture of 32x24 texels in the shader-read-only layout, read through a
// combined image sampler (linear, clamp to edge) into a buffer of vec4s; --sampled-uv does the same
// with a sampler that repeats in v (a manifest's address is one for u and v), given as the set
// layout's immutable sampler; --sampled-separate reads the same texture and sampler as two
// descriptors (a sampled image at binding 0, the sampler at binding 2: the separate kernel); with
// --sampled-uv too, its sampler that repeats in v is binding 2's immutable sampler.
// --push-descriptors enables VK_KHR_push_descriptor (a device without it: exit 10, saying so) and
// makes one more pipeline (pushed: the scale kernel with a scale of 1.5, made last), whose set takes
// push descriptors; each round ends with its dispatch of 32 workgroups over 2048 elements of x,
// after vkCmdPushDescriptorSetKHR writes x at binding 0 and a decoy (the indirect kernel's values)
// at binding 1, and vkCmdPushDescriptorSetWithTemplateKHR then writes binding 1 again: a buffer of
// 2048 floats (pushed_y = x * 1.5 + round).
// --secondary makes one more pipeline (late: the scale kernel with a scale of 0.5, made last) and
// records, once, a secondary command buffer that binds it and dispatches 32 workgroups over 2048
// elements of x into a buffer of 2048 floats (late_y = x * 0.5 + 1); each round's command buffer
// executes it after its own dispatches. --secondary-twice executes it twice in each round (it is
// recorded with the simultaneous-use flag).
#include <vulkan/vulkan.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <thread>

#include "capture_demo_accumulate.h"
#include "capture_demo_chain.h"
#include "capture_demo_counts.h"
#include "capture_demo_invert.h"
#include "capture_demo_sample.h"
#include "capture_demo_separate.h"
#include "capture_demo_scale.h"
#include "capture_demo_spread.h"
#include "vulkan_setup.hpp"

namespace {

using capture_program::Check;
using capture_program::Gpu;
using capture_program::Buffer;

// Host-visible, coherent and mapped, as the demo reads and writes its buffers directly.
Buffer MakeBuffer(const Gpu& gpu, VkDeviceSize size, VkBufferUsageFlags usage) {
  return capture_program::MakeBuffer(gpu, size, usage,
                                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

struct Kernel {
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
};

// The set layout of `bindings`, a pipeline layout with `push_bytes` of push constants (none for 0),
// the pipeline of `code`'s main, and one descriptor set from `pool`.
Kernel MakePipeline(const Gpu& gpu, VkDescriptorPool pool, const VkDescriptorSetLayoutBinding* bindings,
                    uint32_t binding_count, const uint32_t* code, size_t bytes, uint32_t push_bytes,
                    const VkSpecializationInfo* spec, VkDescriptorSetLayoutCreateFlags set_flags = 0) {
  Kernel k;
  VkDescriptorSetLayoutCreateInfo set_info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .flags = set_flags,
                                           .bindingCount = binding_count,
                                           .pBindings = bindings};
  Check(vkCreateDescriptorSetLayout(gpu.device, &set_info, nullptr, &k.set_layout), "vkCreateDescriptorSetLayout");
  VkPushConstantRange range{.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = push_bytes};
  VkPipelineLayoutCreateInfo layout_info{.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                         .setLayoutCount = 1,
                                         .pSetLayouts = &k.set_layout,
                                         .pushConstantRangeCount = push_bytes != 0 ? 1u : 0u,
                                         .pPushConstantRanges = push_bytes != 0 ? &range : nullptr};
  Check(vkCreatePipelineLayout(gpu.device, &layout_info, nullptr, &k.layout), "vkCreatePipelineLayout");
  VkShaderModuleCreateInfo module_info{
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = bytes, .pCode = code};
  VkShaderModule module;
  Check(vkCreateShaderModule(gpu.device, &module_info, nullptr, &module), "vkCreateShaderModule");
  VkComputePipelineCreateInfo pipeline{.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                 .module = module,
                                                 .pName = "main",
                                                 .pSpecializationInfo = spec},
                                       .layout = k.layout};
  Check(vkCreateComputePipelines(gpu.device, VK_NULL_HANDLE, 1, &pipeline, nullptr, &k.pipeline),
        "vkCreateComputePipelines");
  // As many programs do: the module is gone once the pipeline is made.
  vkDestroyShaderModule(gpu.device, module, nullptr);
  // A set that takes push descriptors is never allocated.
  if ((set_flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) != 0) return k;
  VkDescriptorSetAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &k.set_layout};
  Check(vkAllocateDescriptorSets(gpu.device, &allocate, &k.set), "vkAllocateDescriptorSets");
  return k;
}

// One descriptor write: `infos` at consecutive descriptors of `set` from `binding` on.
void WriteBuffers(const Gpu& gpu, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                  std::initializer_list<VkDescriptorBufferInfo> infos) {
  const VkWriteDescriptorSet write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                   .dstSet = set,
                                   .dstBinding = binding,
                                   .descriptorCount = static_cast<uint32_t>(infos.size()),
                                   .descriptorType = type,
                                   .pBufferInfo = infos.begin()};
  vkUpdateDescriptorSets(gpu.device, 1, &write, 0, nullptr);
}

// Storage buffers a and b at bindings `first` and `first` + 1 (0 and 1 by default), and a uniform
// buffer at 2 where given.
Kernel MakeKernel(const Gpu& gpu, VkDescriptorPool pool, const uint32_t* code, size_t bytes, uint32_t push_bytes,
                  const VkSpecializationInfo* spec, const Buffer& a, const Buffer& b,
                  const Buffer* uniform = nullptr, uint32_t first = 0) {
  const VkDescriptorSetLayoutBinding bindings[3] = {{.binding = first,
                                                     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                     .descriptorCount = 1,
                                                     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
                                                    {.binding = first + 1,
                                                     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                     .descriptorCount = 1,
                                                     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
                                                    {.binding = 2,
                                                     .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                     .descriptorCount = 1,
                                                     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT}};
  Kernel k = MakePipeline(gpu, pool, bindings, uniform != nullptr ? 3u : 2u, code, bytes, push_bytes, spec);
  WriteBuffers(gpu, k.set, first, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
               {{a.buffer, 0, VK_WHOLE_SIZE}, {b.buffer, 0, VK_WHOLE_SIZE}});
  if (uniform != nullptr)
    WriteBuffers(gpu, k.set, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {{uniform->buffer, 0, VK_WHOLE_SIZE}});
  return k;
}

// An rgba8 image of `width` x `height` texels, one level and layer, in device memory, and a view of it.
struct Rgba8 {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

Rgba8 MakeRgba8(const Gpu& gpu, uint32_t width, uint32_t height, VkImageUsageFlags usage) {
  Rgba8 r;
  VkImageCreateInfo info{.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                         .imageType = VK_IMAGE_TYPE_2D,
                         .format = VK_FORMAT_R8G8B8A8_UNORM,
                         .extent = {width, height, 1},
                         .mipLevels = 1,
                         .arrayLayers = 1,
                         .samples = VK_SAMPLE_COUNT_1_BIT,
                         .tiling = VK_IMAGE_TILING_OPTIMAL,
                         .usage = usage};
  Check(vkCreateImage(gpu.device, &info, nullptr, &r.image), "vkCreateImage");
  VkMemoryRequirements needs;
  vkGetImageMemoryRequirements(gpu.device, r.image, &needs);
  VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = needs.size,
                                .memoryTypeIndex = capture_program::MemoryType(gpu, needs.memoryTypeBits, 0)};
  Check(vkAllocateMemory(gpu.device, &allocate, nullptr, &r.memory), "vkAllocateMemory");
  Check(vkBindImageMemory(gpu.device, r.image, r.memory, 0), "vkBindImageMemory");
  VkImageViewCreateInfo view{.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                             .image = r.image,
                             .viewType = VK_IMAGE_VIEW_TYPE_2D,
                             .format = VK_FORMAT_R8G8B8A8_UNORM,
                             .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  Check(vkCreateImageView(gpu.device, &view, nullptr, &r.view), "vkCreateImageView");
  return r;
}

void FreeRgba8(const Gpu& gpu, const Rgba8& r) {
  vkDestroyImageView(gpu.device, r.view, nullptr);
  vkDestroyImage(gpu.device, r.image, nullptr);
  vkFreeMemory(gpu.device, r.memory, nullptr);
}

// A storage image of 64x16 rgba8 texels in the general layout, filled with a pattern from `staging`
// (texel byte k holds k * 7 mod 256), and the invert kernel over it.
struct Picture {
  Rgba8 pixels;
  Kernel kernel;
};
constexpr uint32_t kPictureWidth = 64, kPictureHeight = 16;

Picture MakePicture(const Gpu& gpu, VkDescriptorPool pool, VkCommandBuffer cb, const Buffer& staging) {
  Picture p;
  p.pixels =
      MakeRgba8(gpu, kPictureWidth, kPictureHeight, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  for (uint32_t k = 0; k < kPictureWidth * kPictureHeight * 4; ++k)
    static_cast<uint8_t*>(staging.data)[k] = static_cast<uint8_t>(k * 7);
  // To the general layout, the pattern copied in, and made visible to the compute shader.
  VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  VkImageMemoryBarrier to_general{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                  .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                  .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                  .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                                  .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .image = p.pixels.image,
                                  .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                       1, &to_general);
  VkBufferImageCopy region{.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = {kPictureWidth, kPictureHeight, 1}};
  vkCmdCopyBufferToImage(cb, staging.buffer, p.pixels.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  VkMemoryBarrier copied{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &copied, 0,
                       nullptr, 0, nullptr);
  Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
  VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
  Check(vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  Check(vkQueueWaitIdle(gpu.queue), "vkQueueWaitIdle");

  const VkDescriptorSetLayoutBinding binding{.binding = 0,
                                             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                             .descriptorCount = 1,
                                             .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  p.kernel = MakePipeline(gpu, pool, &binding, 1, kInvertSpirv, sizeof kInvertSpirv, 0, nullptr);
  VkDescriptorImageInfo image_info{.imageView = p.pixels.view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .dstSet = p.kernel.set,
                             .dstBinding = 0,
                             .descriptorCount = 1,
                             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                             .pImageInfo = &image_info};
  vkUpdateDescriptorSets(gpu.device, 1, &write, 0, nullptr);
  return p;
}

// An rgba8 texture of 32x24 texels in the shader-read-only layout (texel byte k holds k * 13 mod
// 256), read by the sample kernel through a linear, clamp-to-edge sampler into `seen`; with
// `uv_differ` the sampler repeats in v instead, and is the set layout's immutable sampler.
struct Texture {
  Rgba8 texels;
  VkSampler sampler = VK_NULL_HANDLE;
  Kernel kernel;
};
constexpr uint32_t kTextureWidth = 32, kTextureHeight = 24;

uint8_t TextureByte(uint32_t k) { return static_cast<uint8_t>(k * 13); }

Texture MakeTexture(const Gpu& gpu, VkDescriptorPool pool, VkCommandBuffer cb, const Buffer& staging,
                    const Buffer& seen, bool uv_differ, bool separate) {
  Texture t;
  t.texels =
      MakeRgba8(gpu, kTextureWidth, kTextureHeight, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
  VkSamplerCreateInfo sampler{
      .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
      .magFilter = VK_FILTER_LINEAR,
      .minFilter = VK_FILTER_LINEAR,
      .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
      .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
      .addressModeV = uv_differ ? VK_SAMPLER_ADDRESS_MODE_REPEAT : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
      .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
      .maxAnisotropy = 1.0f,
      .maxLod = VK_LOD_CLAMP_NONE,
      .borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE};
  Check(vkCreateSampler(gpu.device, &sampler, nullptr, &t.sampler), "vkCreateSampler");
  for (uint32_t k = 0; k < kTextureWidth * kTextureHeight * 4; ++k)
    static_cast<uint8_t*>(staging.data)[k] = TextureByte(k);
  // The pattern copied in, then the layout every sampling reads it in.
  VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  VkImageMemoryBarrier to_copy{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = t.texels.image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                       1, &to_copy);
  VkBufferImageCopy region{.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                           .imageExtent = {kTextureWidth, kTextureHeight, 1}};
  vkCmdCopyBufferToImage(cb, staging.buffer, t.texels.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  VkImageMemoryBarrier to_read = to_copy;
  to_read.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_read.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  to_read.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  to_read.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &to_read);
  Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
  VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
  Check(vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  Check(vkQueueWaitIdle(gpu.queue), "vkQueueWaitIdle");

  const VkDescriptorType image_type =
      separate ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  const VkDescriptorSetLayoutBinding bindings[3] = {{.binding = 0,
                                                     .descriptorType = image_type,
                                                     .descriptorCount = 1,
                                                     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                                                     .pImmutableSamplers = uv_differ && !separate ? &t.sampler : nullptr},
                                                    {.binding = 1,
                                                     .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                     .descriptorCount = 1,
                                                     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
                                                    {.binding = 2,
                                                     .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER,
                                                     .descriptorCount = 1,
                                                     .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                                                     .pImmutableSamplers = uv_differ ? &t.sampler : nullptr}};
  t.kernel = separate ? MakePipeline(gpu, pool, bindings, 3, kSeparateSpirv, sizeof kSeparateSpirv, 0, nullptr)
                      : MakePipeline(gpu, pool, bindings, 2, kSampleSpirv, sizeof kSampleSpirv, 0, nullptr);
  // With an immutable sampler the descriptor's is ignored: none is given.
  VkDescriptorImageInfo image_info{.sampler = uv_differ ? VK_NULL_HANDLE : t.sampler,
                                   .imageView = t.texels.view,
                                   .imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  if (separate) image_info.sampler = VK_NULL_HANDLE;
  const VkDescriptorImageInfo sampler_info{.sampler = t.sampler};
  const VkWriteDescriptorSet writes[2] = {{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                           .dstSet = t.kernel.set,
                                           .dstBinding = 0,
                                           .descriptorCount = 1,
                                           .descriptorType = image_type,
                                           .pImageInfo = &image_info},
                                          {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                           .dstSet = t.kernel.set,
                                           .dstBinding = 2,
                                           .descriptorCount = 1,
                                           .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER,
                                           .pImageInfo = &sampler_info}};
  // A separate sampler that is the layout's immutable one is not written either.
  vkUpdateDescriptorSets(gpu.device, separate && !uv_differ ? 2 : 1, writes, 0, nullptr);
  WriteBuffers(gpu, t.kernel.set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{seen.buffer, 0, VK_WHOLE_SIZE}});
  return t;
}

// What the sample kernel reads at texel (x, y), channel c: a linear mix of (x - 1, y), (x, y),
// (x - 1, y + 1) and (x, y + 1), weights 1/4 and 3/4 in x, 3/4 and 1/4 in y, clamped to the edge
// in x and clamped or repeated in y.
float Sampled(uint32_t x, uint32_t y, uint32_t c, bool repeat_v) {
  auto texel = [&](int64_t i, int64_t j) {
    i = i < 0 ? 0 : i;
    j = j < static_cast<int64_t>(kTextureHeight) ? j : repeat_v ? 0 : kTextureHeight - 1;
    return static_cast<float>(TextureByte(static_cast<uint32_t>((j * kTextureWidth + i) * 4 + c))) / 255.0f;
  };
  int64_t i = x, j = y;
  return 0.75f * (0.25f * texel(i - 1, j) + 0.75f * texel(i, j)) +
         0.25f * (0.25f * texel(i - 1, j + 1) + 0.75f * texel(i, j + 1));
}

void Bind(VkCommandBuffer cb, const Kernel& k, const void* push, uint32_t push_bytes) {
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  if (push_bytes != 0) vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
}

// The counts a shader wrote, read by the next dispatch as its indirect command and by its shader.
void IndirectBarrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
}

void Barrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
}

// The storage buffers x and y at bindings 0 and 1 of a set that takes push descriptors, and the
// scale kernel over them with `scale` as its scale; the push template writes binding 1 alone.
struct Pushed {
  Kernel kernel;
  VkDescriptorUpdateTemplate binding1 = VK_NULL_HANDLE;
  PFN_vkCmdPushDescriptorSetKHR push = nullptr;
  PFN_vkCmdPushDescriptorSetWithTemplateKHR push_template = nullptr;
};

const VkDescriptorSetLayoutBinding kTwoBuffers[2] = {{.binding = 0,
                                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                      .descriptorCount = 1,
                                                      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
                                                     {.binding = 1,
                                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                      .descriptorCount = 1,
                                                      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT}};

Pushed MakePushed(const Gpu& gpu, const VkSpecializationInfo* spec) {
  Pushed p;
  p.kernel = MakePipeline(gpu, VK_NULL_HANDLE, kTwoBuffers, 2, kScaleSpirv, sizeof kScaleSpirv, 8, spec,
                          VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR);
  VkDescriptorUpdateTemplateEntry entry{.dstBinding = 1,
                                        .descriptorCount = 1,
                                        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        .stride = sizeof(VkDescriptorBufferInfo)};
  VkDescriptorUpdateTemplateCreateInfo info{.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
                                            .descriptorUpdateEntryCount = 1,
                                            .pDescriptorUpdateEntries = &entry,
                                            .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
                                            .pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE,
                                            .pipelineLayout = p.kernel.layout,
                                            .set = 0};
  Check(vkCreateDescriptorUpdateTemplate(gpu.device, &info, nullptr, &p.binding1), "vkCreateDescriptorUpdateTemplate");
  p.push =
      reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(gpu.device, "vkCmdPushDescriptorSetKHR"));
  p.push_template = reinterpret_cast<PFN_vkCmdPushDescriptorSetWithTemplateKHR>(
      vkGetDeviceProcAddr(gpu.device, "vkCmdPushDescriptorSetWithTemplateKHR"));
  if (p.push == nullptr || p.push_template == nullptr) Check(VK_ERROR_EXTENSION_NOT_PRESENT, "vkGetDeviceProcAddr");
  return p;
}

// x and a decoy pushed at bindings 0 and 1, then `out` over the decoy through the template, and
// the pushed kernel's dispatch over 2048 elements.
void RecordPushed(VkCommandBuffer cb, const Pushed& p, const Buffer& x, const Buffer& decoy, const Buffer& out,
                  float add) {
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.kernel.pipeline);
  const VkDescriptorBufferInfo infos[2] = {{x.buffer, 0, VK_WHOLE_SIZE}, {decoy.buffer, 0, VK_WHOLE_SIZE}};
  const VkWriteDescriptorSet write{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                   .dstBinding = 0,
                                   .descriptorCount = 2,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                   .pBufferInfo = infos};
  p.push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.kernel.layout, 0, 1, &write);
  const VkDescriptorBufferInfo replaced{out.buffer, 0, VK_WHOLE_SIZE};
  p.push_template(cb, p.binding1, p.kernel.layout, 0, &replaced);
  const struct {
    uint32_t n;
    float add;
  } push{2048, add};
  vkCmdPushConstants(cb, p.kernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &push);
  vkCmdDispatch(cb, 32, 1, 1);
}

// The late kernel's secondary command buffer: its own pipeline, set and push constants (compute
// state is not inherited), one dispatch over 2048 elements.
VkCommandBuffer RecordSecondary(const Gpu& gpu, const Kernel& late, bool simultaneous) {
  VkCommandBuffer secondary;
  VkCommandBufferAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = gpu.pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                       .commandBufferCount = 1};
  Check(vkAllocateCommandBuffers(gpu.device, &allocate, &secondary), "vkAllocateCommandBuffers");
  VkCommandBufferInheritanceInfo inheritance{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin{
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = simultaneous ? static_cast<VkCommandBufferUsageFlags>(VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT) : 0u,
      .pInheritanceInfo = &inheritance};
  Check(vkBeginCommandBuffer(secondary, &begin), "vkBeginCommandBuffer");
  const struct {
    uint32_t n;
    float add;
  } push{2048, 1.0f};
  Bind(secondary, late, &push, 8);
  vkCmdDispatch(secondary, 32, 1, 1);
  Check(vkEndCommandBuffer(secondary), "vkEndCommandBuffer");
  return secondary;
}

void Run(const Gpu& gpu, VkCommandBuffer cb) {
  VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
  Check(vkQueueSubmit(gpu.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  Check(vkQueueWaitIdle(gpu.queue), "vkQueueWaitIdle");
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bool dispatch = true, indirect = false, indirect_zero = false, chain = false, chain_fill = false, chain_alias = false;
  bool sampled = false, sampled_uv = false, sampled_separate = false, pushed = false, secondary = false, secondary_twice = false;
  double sleep_s = 0;
  int rerecord = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.starts_with("--exit="))
      exit_code = std::atoi(arg.c_str() + 7);
    else if (arg == "--no-dispatch")
      dispatch = false;
    else if (arg == "--indirect")
      indirect = true;
    else if (arg == "--indirect-zero")
      indirect = indirect_zero = true;
    else if (arg.starts_with("--rerecord="))
      rerecord = std::atoi(arg.c_str() + 11);
    else if (arg.starts_with("--sleep="))
      sleep_s = std::atof(arg.c_str() + 8);
    else if (arg == "--chain")
      chain = true;
    else if (arg == "--chain-fill")
      chain = chain_fill = true;
    else if (arg == "--chain-alias")
      chain = chain_alias = true;
    else if (arg == "--sampled")
      sampled = true;
    else if (arg == "--sampled-uv")
      sampled = sampled_uv = true;
    else if (arg == "--sampled-separate")
      sampled = sampled_separate = true;
    else if (arg == "--push-descriptors")
      pushed = true;
    else if (arg == "--secondary")
      secondary = true;
    else if (arg == "--secondary-twice")
      secondary = secondary_twice = true;
    else {
      std::fprintf(stderr, "capture_demo: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  Gpu gpu = capture_program::MakeGpu("capture_demo", pushed ? VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME : nullptr);
  constexpr uint32_t kN = 4096;
  Buffer x = MakeBuffer(gpu, kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer y = MakeBuffer(gpu, kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer src = MakeBuffer(gpu, kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer acc = MakeBuffer(gpu, kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer args = MakeBuffer(gpu, 12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer values = MakeBuffer(gpu, kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer factor = MakeBuffer(gpu, 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  Buffer total = MakeBuffer(gpu, kN * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer scratch = MakeBuffer(gpu, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer seen = MakeBuffer(gpu, kTextureWidth * kTextureHeight * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer pushed_y = MakeBuffer(gpu, 2048 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  Buffer late_y = MakeBuffer(gpu, 2048 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  const struct {
    uint32_t factor;
    float unused, pair[2];
  } factor_values{2, -1.0f, {0.25f, 0.75f}};
  std::memcpy(factor.data, &factor_values, sizeof factor_values);
  for (uint32_t i = 0; i < kN; ++i) {
    static_cast<float*>(x.data)[i] = 1.0f + 0.25f * static_cast<float>(i % 1000);
    static_cast<uint32_t*>(src.data)[i] = i;
    static_cast<uint32_t*>(acc.data)[i] = 7;
    static_cast<float*>(total.data)[i] = 0.5f * static_cast<float>(i);
    static_cast<float*>(values.data)[i] = -1.0f;
  }

  VkDescriptorPoolSize sizes[6] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 12},  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},   {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                   {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},   {VK_DESCRIPTOR_TYPE_SAMPLER, 1}};
  VkDescriptorPoolCreateInfo pool_info{
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 8, .poolSizeCount = 6, .pPoolSizes = sizes};
  VkDescriptorPool pool;
  Check(vkCreateDescriptorPool(gpu.device, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  struct {
    uint32_t local = 64;
    float scale = 2.5f;
  } spec_data;
  VkSpecializationMapEntry entries[2] = {{0, 0, 4}, {1, 4, 4}};
  VkSpecializationInfo spec{
      .mapEntryCount = 2, .pMapEntries = entries, .dataSize = sizeof spec_data, .pData = &spec_data};
  Kernel scale = MakeKernel(gpu, pool, kScaleSpirv, sizeof kScaleSpirv, 8, &spec, x, y);
  Kernel accumulate = MakeKernel(gpu, pool, kAccumulateSpirv, sizeof kAccumulateSpirv, 4, nullptr, src, acc, &factor);

  VkCommandBuffer cb;
  VkCommandBufferAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = gpu.pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
  Check(vkAllocateCommandBuffers(gpu.device, &allocate, &cb), "vkAllocateCommandBuffers");
  Buffer pixels = MakeBuffer(gpu, kPictureWidth * kPictureHeight * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  Picture picture = MakePicture(gpu, pool, cb, pixels);
  // Made last, so that the other pipelines keep their numbers.
  Kernel chained;
  if (chain) chained = MakeKernel(gpu, pool, kChainSpirv, sizeof kChainSpirv, 8, nullptr, y, total, nullptr, 1);
  Kernel counts, spread;
  if (indirect) {
    const VkDescriptorSetLayoutBinding binding{.binding = 0,
                                               .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                               .descriptorCount = 1,
                                               .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    counts = MakePipeline(gpu, pool, &binding, 1, kCountsSpirv, sizeof kCountsSpirv, 4, nullptr);
    WriteBuffers(gpu, counts.set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{args.buffer, 0, VK_WHOLE_SIZE}});
    spread = MakeKernel(gpu, pool, kSpreadSpirv, sizeof kSpreadSpirv, 0, nullptr, args, values);
  }
  Texture texture;
  if (sampled) texture = MakeTexture(gpu, pool, cb, pixels, seen, sampled_uv, sampled_separate);
  // The scale kernel again with other scales: other pipelines, by their specialization.
  struct {
    uint32_t local = 64;
    float scale = 1.5f;
  } pushed_spec_data, late_spec_data;
  late_spec_data.scale = 0.5f;
  VkSpecializationInfo pushed_spec = spec, late_spec = spec;
  pushed_spec.pData = &pushed_spec_data;
  late_spec.pData = &late_spec_data;
  Pushed push_kernel;
  if (pushed) push_kernel = MakePushed(gpu, &pushed_spec);
  Kernel late;
  VkCommandBuffer late_cb = VK_NULL_HANDLE;
  if (secondary) {
    late = MakeKernel(gpu, pool, kScaleSpirv, sizeof kScaleSpirv, 8, &late_spec, x, late_y);
    late_cb = RecordSecondary(gpu, late, secondary_twice);
  }
  const uint32_t spread_n = indirect_zero ? 0 : 2048;
  VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bool ok = true;
  if (dispatch) {
    // A first, smaller scale: 1000 elements in 16 workgroups of 64.
    struct {
      uint32_t n;
      float add;
    } push{1000, 0.5f};
    Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    Bind(cb, scale, &push, 8);
    vkCmdDispatch(cb, 16, 1, 1);
    Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    Run(gpu, cb);
    // Then three rounds of the three kernels over every element, each round's offset its own.
    for (uint32_t round = 0; round < 3; ++round) {
      push = {kN, static_cast<float>(round)};
      uint32_t n = kN;
      // Recorded again and again before it runs, as a program that rebuilds its work might.
      for (int again = 0; again < rerecord; ++again) {
        Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
        Bind(cb, scale, &push, 8);
        vkCmdDispatch(cb, kN / 64, 1, 1);
        Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      }
      Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
      Bind(cb, scale, &push, 8);
      vkCmdDispatch(cb, kN / 64, 1, 1);
      Barrier(cb);
      Bind(cb, accumulate, &n, 4);
      vkCmdDispatch(cb, kN / 32, 1, 1);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, picture.kernel.pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, picture.kernel.layout, 0, 1, &picture.kernel.set, 0,
                              nullptr);
      vkCmdDispatch(cb, kPictureWidth / 8, kPictureHeight / 8, 1);
      if (indirect) {
        // The host's counts, which the counts kernel overwrites before the indirect dispatch reads them.
        const uint32_t host_counts[3] = {1, 1, 1};
        std::memcpy(args.data, host_counts, sizeof host_counts);
        Barrier(cb);
        Bind(cb, counts, &spread_n, 4);
        vkCmdDispatch(cb, 1, 1, 1);
        IndirectBarrier(cb);
        Bind(cb, spread, nullptr, 0);
        vkCmdDispatchIndirect(cb, args.buffer, 0);
      }
      if (sampled) {
        Bind(cb, texture.kernel, nullptr, 0);
        vkCmdDispatch(cb, kTextureWidth / 8, kTextureHeight / 8, 1);
      }
      if (pushed) RecordPushed(cb, push_kernel, x, values, pushed_y, static_cast<float>(round));
      if (secondary) {
        const VkCommandBuffer twice[2] = {late_cb, late_cb};
        vkCmdExecuteCommands(cb, secondary_twice ? 2 : 1, twice);
      }
      Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      Run(gpu, cb);
    }
    if (chain) {
      // Three dependent dispatches in one command buffer: y = x * 2.5 + 3, then total += 0.5 y and
      // total += 0.25 y, each after a barrier.
      struct {
        uint32_t n;
        float value;
      } scale_push{kN, 3.0f}, half{kN, 0.5f}, quarter{kN, 0.25f};
      if (chain_alias) {
        WriteBuffers(gpu, chained.set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {{y.buffer, 0, (kN - 64) * 4}});
        half.n = quarter.n = kN - 64;
      }
      Check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
      Bind(cb, scale, &scale_push, 8);
      vkCmdDispatch(cb, kN / 64, 1, 1);
      Barrier(cb);
      Bind(cb, chained, &half, 8);
      vkCmdDispatch(cb, kN / 32, 1, 1);
      Barrier(cb);
      if (chain_fill) vkCmdFillBuffer(cb, scratch.buffer, 0, 256, 0);
      vkCmdPushConstants(cb, chained.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, &quarter);
      vkCmdDispatch(cb, kN / 32, 1, 1);
      Check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      Run(gpu, cb);
      for (uint32_t i = 0; i < kN && !chain_alias; ++i) {
        float y_value = static_cast<float*>(x.data)[i] * 2.5f + 3.0f;
        float want = 0.5f * static_cast<float>(i) + 0.75f * y_value;
        ok = ok && static_cast<float*>(y.data)[i] == y_value &&
             std::abs(static_cast<float*>(total.data)[i] - want) <= 1e-4f * std::abs(want);
      }
    }
    for (uint32_t i = 0; i < kN && indirect; ++i) {
      float want = i < spread_n ? 0.5f * static_cast<float>(i) + static_cast<float>(spread_n / 64) : -1.0f;
      ok = ok && static_cast<float*>(values.data)[i] == want;
    }
    for (uint32_t k = 0; k < kTextureWidth * kTextureHeight * 4 && sampled; ++k) {
      const uint32_t texel = k / 4;
      float want = Sampled(texel % kTextureWidth, texel / kTextureWidth, k % 4, sampled_uv);
      ok = ok && std::abs(static_cast<float*>(seen.data)[k] - want) <= 1.0f / 255;
    }
    for (uint32_t i = 0; i < 2048; ++i) {
      const float xi = static_cast<float*>(x.data)[i];
      ok = ok && (!pushed || static_cast<float*>(pushed_y.data)[i] == xi * 1.5f + 2.0f);
      ok = ok && (!secondary || static_cast<float*>(late_y.data)[i] == xi * 0.5f + 1.0f);
    }
    for (uint32_t i = 0; i < kN && !chain; ++i) {
      float want_y = static_cast<float*>(x.data)[i] * 2.5f + 2.0f;
      uint32_t want_acc = 7 + 3 * (2 * i + 1);
      ok = ok && static_cast<float*>(y.data)[i] == want_y && static_cast<uint32_t*>(acc.data)[i] == want_acc;
    }
  }
  if (!ok) std::fprintf(stderr, "capture_demo: wrong results\n");
  vkDeviceWaitIdle(gpu.device);
  FreeRgba8(gpu, picture.pixels);
  if (sampled) {
    vkDestroySampler(gpu.device, texture.sampler, nullptr);
    FreeRgba8(gpu, texture.texels);
  }
  if (pushed) vkDestroyDescriptorUpdateTemplate(gpu.device, push_kernel.binding1, nullptr);
  for (Buffer* b : {&x, &y, &src, &acc, &args, &values, &factor, &pixels, &total, &scratch, &seen, &pushed_y, &late_y})
    capture_program::FreeBuffer(gpu, *b);
  for (Kernel* k : {&scale, &accumulate, &picture.kernel, &chained, &counts, &spread, &texture.kernel,
                    &push_kernel.kernel, &late}) {
    if (k->pipeline == VK_NULL_HANDLE) continue;
    vkDestroyPipeline(gpu.device, k->pipeline, nullptr);
    vkDestroyPipelineLayout(gpu.device, k->layout, nullptr);
    vkDestroyDescriptorSetLayout(gpu.device, k->set_layout, nullptr);
  }
  vkDestroyDescriptorPool(gpu.device, pool, nullptr);
  capture_program::DestroyGpu(gpu);
  if (sleep_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(sleep_s));
  if (!ok) return 9;
  return exit_code;
}
