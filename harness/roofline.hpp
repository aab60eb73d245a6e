// The device's measured memory roofline: the best device-to-device copy bandwidth, measured once
// per run, lazily, before the first benchmark that reports `roofline%`.
#pragma once

#include <cstdint>

namespace csbench {

class Context;

struct Roofline {
  double copy_command_gbs = 0;  // vkCmdCopyBuffer, bytes read + bytes written per second
  double copy_kernel_gbs = 0;   // copy.comp at its best workgroup
  double best_gbs() const { return copy_command_gbs > copy_kernel_gbs ? copy_command_gbs : copy_kernel_gbs; }
};

// Bytes each copy buffer holds: beyond any GPU's last-level cache, and within lavapipe's limits.
inline constexpr uint64_t kRooflineBytes = 256ull << 20;

// GB/s of one copy of `bytes` bytes taking `seconds` (read and write both count).
double CopyGBs(uint64_t bytes, double seconds);

// Measures on first call (a few batches of each copy, the best batch counts), then returns the
// cached result.
const Roofline& MeasuredRoofline(Context& context);

}  // namespace csbench

#include <memory>

namespace csbench {

class Buffer;
class Commands;
class Kernel;
class Bindings;

// A device-to-device copy of `bytes` random bytes: by vkCmdCopyBuffer (workgroup 0) or by the
// copy kernel with that many invocations per workgroup.
class Copier {
 public:
  Copier(Context& context, uint64_t bytes, uint32_t workgroup);
  ~Copier();
  void Record(Commands& commands) const;
  // Copies once into a poisoned destination and compares it with the source, byte for byte.
  bool Check() const;
  uint64_t bytes() const { return bytes_; }

 private:
  Context* context_;
  uint64_t bytes_;
  uint32_t workgroup_;
  uint64_t window_bytes_ = 0;
  std::unique_ptr<Buffer> src_, dst_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

}  // namespace csbench
