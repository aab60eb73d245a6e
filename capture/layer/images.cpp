// Images and image views, tracked for the storage images a captured dispatch binds: their format,
// size, levels and layers, and what each view shows. In capture mode every image is made with the
// transfer-source usage added, so that its texels can be copied out around the dispatch.

#include "capture/layer/layer.hpp"

namespace csbench::capture {

namespace {

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* info,
                                           const VkAllocationCallbacks* allocator, VkImage* image) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkImageCreateInfo changed = *info;
  if (layer.config.mode == Config::Mode::kCapture && (info->usage & VK_IMAGE_USAGE_STORAGE_BIT) != 0)
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
  layer.views[*view] = {
      .image = info->image, .type = info->viewType, .format = info->format, .range = info->subresourceRange};
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice device, VkImageView view, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  ForgetOn(layer, device, layer.views, view)->table.DestroyImageView(device, view, allocator);
}

}  // namespace

PFN_vkVoidFunction ImageFunction(const char* name) {
  static const NamedFunction kFunctions[] = {
      CSBENCH_LAYER_FUNCTION(CreateImage),
      CSBENCH_LAYER_FUNCTION(DestroyImage),
      CSBENCH_LAYER_FUNCTION(CreateImageView),
      CSBENCH_LAYER_FUNCTION(DestroyImageView),
  };
  return FindNamed(kFunctions, name);
}

}  // namespace csbench::capture
