// The device's measured memory ceilings: the best device-to-device copy bandwidth (the roofline of
// kernels that read and write) and the best read bandwidth (the ceiling of kernels that only
// read), measured once per run, lazily, before the first benchmark that reports `roofline%`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace csbench {

class Context;

struct Roofline {
  double copy_command_gbs = 0;  // vkCmdCopyBuffer, bytes read + bytes written per second
  double copy_kernel_gbs = 0;   // copy.comp at its best workgroup
  double read_kernel_gbs = 0;   // read.comp at its best workgroup, bytes read per second
  double best_gbs() const { return copy_command_gbs > copy_kernel_gbs ? copy_command_gbs : copy_kernel_gbs; }
  // The ceiling of a kernel: the read ceiling when it only reads (its writes are negligible). A
  // read is never slower than a copy, which reads as much; where the read kernel is (lavapipe runs
  // its shared-memory fold slowly), the copy bounds the read ceiling from below.
  double ceiling_gbs(bool read_only) const {
    return read_only && read_kernel_gbs > best_gbs() ? read_kernel_gbs : best_gbs();
  }
};

// Bytes each copy buffer holds: beyond any GPU's last-level cache, and within lavapipe's limits.
inline constexpr uint64_t kRooflineBytes = 256ull << 20;

// `bytes` / 4 random words, from a hash of each index and `bytes` (the same for the same size),
// made on the host's threads: the source of every copy and transfer ceiling.
std::vector<uint32_t> SourceWords(uint64_t bytes);

// GB/s of one copy of `bytes` bytes taking `seconds` (read and write both count).
double CopyGBs(uint64_t bytes, double seconds);

// What a Copier does with its `bytes` bytes: copy them (by the copy command where the workgroup
// is 0, else by copy.comp), or only read them (read.comp).
enum class Access { kCopy, kRead };

// Measures on first call (a few batches of each copy, the best batch counts), then returns the
// cached result.
const Roofline& MeasuredRoofline(Context& context);

// GB/s of the copy kernel over a footprint of `footprint` bytes (a copy of half of them into the
// other half), repeated so that whatever cache holds the footprint serves it, net of one dependent
// dispatch a copy (`dispatch_seconds`); 0 where the footprint is at least the DRAM ceilings' own
// (2 x kRooflineBytes). Measured once per footprint.
double MeasuredResidentCopy(Context& context, double footprint, double dispatch_seconds);
// Its name among the run's ceilings: "copy_resident_<KiB>KiB".
std::string ResidentCopyName(double footprint);

}  // namespace csbench

#include <memory>

namespace csbench {

class Buffer;
class RotatingInput;
class Commands;
class Kernel;
class Bindings;

// Elements each invocation of the read kernel (read.comp) loads a trip, before it uses any: the
// roofline's choice.
inline constexpr uint32_t kReadLoads = 8;

// A device-to-device copy of `bytes` random bytes: by vkCmdCopyBuffer (workgroup 0) or by the
// copy kernel with that many invocations per workgroup; or, with Access::kRead, a read of them
// by the read kernel, `loads` elements an invocation and trip, from one of `copies` copies of
// the source (a read that fits one binding window), so that successive reads of a small source
// come from memory, not the last-level cache.
class Copier {
 public:
  Copier(Context& context, uint64_t bytes, uint32_t workgroup, Access access = Access::kCopy, uint32_t copies = 1,
         uint32_t loads = kReadLoads);
  ~Copier();
  // One copy, or one read of copy `copy % copies()`.
  void Record(Commands& commands, uint32_t copy = 0) const;
  uint32_t copies() const;
  // Copies once into a poisoned destination and compares it with the source, byte for byte; a
  // read compares each workgroup's XOR of what it read with the CPU's.
  bool Check() const;
  uint64_t bytes() const { return bytes_; }
  // Bytes moved per run: read and written for a copy, read for a read.
  uint64_t traffic() const { return access_ == Access::kRead ? bytes_ : 2 * bytes_; }

 private:
  Context* context_;
  uint64_t bytes_;
  uint32_t workgroup_;
  Access access_;
  uint32_t loads_;
  uint32_t groups_ = 0;
  uint64_t window_bytes_ = 0;
  std::unique_ptr<RotatingInput> source_;  // the source's copies (one but for a rotated read)
  std::unique_ptr<Buffer> dst_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

}  // namespace csbench
