// The program's transfer commands (copies, fills, updates, clears and blits of buffers and
// images), counted per command buffer and passed through untouched: between the dispatches of a
// captured sequence they change data the capture does not see, so such a sequence is refused
// (capture/layer/commands.cpp). The layer's own copies call the next layer directly and are not
// counted.
#include "capture/layer/layer.hpp"

namespace csbench::capture {

namespace {

template <typename Function>
struct Counted;

// One wrapper per transfer command, by the DeviceTable member it calls down.
template <typename... Args>
struct Counted<void(VKAPI_PTR*)(VkCommandBuffer, Args...)> {
  template <void(VKAPI_PTR* DeviceTable::*Next)(VkCommandBuffer, Args...)>
  static VKAPI_ATTR void VKAPI_CALL Call(VkCommandBuffer cb, Args... args) {
    Layer& layer = TheLayer();
    std::unique_lock lock(layer.mutex);
    Device* device = DeviceOf(layer, cb);
    if (layer.config.mode != Config::Mode::kOff) ++layer.command_buffers[cb].transfers;
    auto next = device->table.*Next;
    lock.unlock();
    next(cb, args...);
  }
};

#define CSBENCH_TRANSFER(name)                                                                      \
  csbench::capture::NamedFunction {                                                                 \
    "vk" #name, reinterpret_cast<PFN_vkVoidFunction>(                                               \
                    &Counted<decltype(DeviceTable::name)>::template Call<&DeviceTable::name>)       \
  }

}  // namespace

PFN_vkVoidFunction TransferFunction(const char* name) {
  static const NamedFunction kFunctions[] = {
      CSBENCH_TRANSFER(CmdCopyBuffer),
      CSBENCH_TRANSFER(CmdCopyImageToBuffer),
      CSBENCH_TRANSFER(CmdFillBuffer),
      CSBENCH_TRANSFER(CmdUpdateBuffer),
      CSBENCH_TRANSFER(CmdCopyBufferToImage),
      CSBENCH_TRANSFER(CmdCopyImage),
      CSBENCH_TRANSFER(CmdBlitImage),
      CSBENCH_TRANSFER(CmdClearColorImage),
      CSBENCH_TRANSFER(CmdCopyBuffer2),
      CSBENCH_TRANSFER(CmdCopyBuffer2KHR),
      CSBENCH_TRANSFER(CmdCopyImage2),
      CSBENCH_TRANSFER(CmdCopyImage2KHR),
      CSBENCH_TRANSFER(CmdCopyBufferToImage2),
      CSBENCH_TRANSFER(CmdCopyBufferToImage2KHR),
      CSBENCH_TRANSFER(CmdCopyImageToBuffer2),
      CSBENCH_TRANSFER(CmdCopyImageToBuffer2KHR),
      CSBENCH_TRANSFER(CmdBlitImage2),
      CSBENCH_TRANSFER(CmdBlitImage2KHR),
  };
  return FindNamed(kFunctions, name);
}

#undef CSBENCH_TRANSFER

}  // namespace csbench::capture
