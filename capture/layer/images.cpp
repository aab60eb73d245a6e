// Images, image views and samplers, tracked for the storage images and combined image samplers a
// captured dispatch binds: an image's format, size, levels and layers, what each view shows, and
// each sampler's settings. In capture mode every storage or sampled image is made with the
// transfer-source usage added, so that its texels can be copied out around the dispatch.

#include "capture/layer/layer.hpp"

namespace csbench::capture {

namespace {

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* info,
                                           const VkAllocationCallbacks* allocator, VkImage* image) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkImageCreateInfo changed = *info;
  if (layer.config.mode == Config::Mode::kCapture &&
      (info->usage & (VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT)) != 0)
    changed.usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkResult result = data->table.CreateImage(device, &changed, allocator, image);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  layer.images[*image] = {.type = info->imageType,
                          .format = info->format,
                          .extent = info->extent,
                          .levels = info->mipLevels,
                          .layers = info->arrayLayers,
                          .samples = info->samples};
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  ForgetOn(layer, device, layer.images, image)->table.DestroyImage(device, image, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImageView(VkDevice device, const VkImageViewCreateInfo* info,
                                               const VkAllocationCallbacks* allocator, VkImageView* view) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.CreateImageView(device, info, allocator, view);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  layer.views[*view] = {.image = info->image,
                        .type = info->viewType,
                        .format = info->format,
                        .range = info->subresourceRange,
                        .components = info->components};
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice device, VkImageView view, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  ForgetOn(layer, device, layer.views, view)->table.DestroyImageView(device, view, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSampler(VkDevice device, const VkSamplerCreateInfo* info,
                                             const VkAllocationCallbacks* allocator, VkSampler* sampler) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.CreateSampler(device, info, allocator, sampler);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  SamplerSettings settings = SettingsOf(*info);
  std::lock_guard lock(layer.mutex);
  layer.samplers[*sampler] = std::move(settings);
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroySampler(VkDevice device, VkSampler sampler, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  ForgetOn(layer, device, layer.samplers, sampler)->table.DestroySampler(device, sampler, allocator);
}

}  // namespace

PFN_vkVoidFunction ImageFunction(const char* name) {
  static const NamedFunction kFunctions[] = {
      CSBENCH_LAYER_FUNCTION(CreateImage),
      CSBENCH_LAYER_FUNCTION(DestroyImage),
      CSBENCH_LAYER_FUNCTION(CreateImageView),
      CSBENCH_LAYER_FUNCTION(DestroyImageView),
      CSBENCH_LAYER_FUNCTION(CreateSampler),
      CSBENCH_LAYER_FUNCTION(DestroySampler),
  };
  return FindNamed(kFunctions, name);
}

}  // namespace csbench::capture
