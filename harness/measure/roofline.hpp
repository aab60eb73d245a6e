// The device's measured memory ceilings: the best device-to-device copy bandwidth (the roofline of
// kernels that read and write) and the best read bandwidth (the ceiling of kernels that only
// read), measured once per run, lazily, before the first benchmark that reports `roofline%`.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace csbench {

class Context;

// Bytes each copy buffer of a GPU's ceilings holds: beyond any GPU's last-level cache, and within
// lavapipe's limits.
inline constexpr uint64_t kRooflineBytes = 256ull << 20;

// The device's last-level cache as its copies see it, and the footprint a cold rotation of inputs
// spans (RotatingInput): the copy command's rate over footprints from 1 MiB up to 512 MiB (256 MiB
// on a CPU device), a copy of half of each into its other half, repeated, so that whatever holds
// the footprint serves it; measured once per run, before the first benchmark (or reused,
// --ceilings=reuse). The cache is CacheEdgeBytes of that curve; the cold footprint is
// kColdSafety times that, at least 16 MiB on a CPU device and kRooflineBytes on a GPU (the
// rotation the stored GPU baselines were measured with), at most the largest footprint measured.
struct ColdCache {
  uint64_t cache_bytes = 0;      // the largest footprint served faster than memory (0: none seen)
  uint64_t footprint_bytes = 0;  // the cold rotation's footprint
  bool reused = false;
};
inline constexpr double kCacheRateFactor = 1.25;
inline constexpr uint64_t kColdSafety = 4;
// The last-level cache a curve of (footprint, GB/s) shows, footprints doubling from the first:
// the largest footprint copied more than kCacheRateFactor times faster than memory (the better of
// the two largest footprints: one noisy reading below memory's rate would make the footprint
// before it look cached). With `confirmed`, its half must have been copied that fast too (or it
// is the first footprint): a CPU device's copies share the host with everything else, and on a
// loaded host one reading above the factor at 64 MiB, of a host whose cache ends at 8 MiB, once
// made every run of that day rotate its inputs over 256 MiB (docs/perf-notes.md, section 29). A
// GPU's are timed by the device, and its smallest footprints are bound by each copy's launch, so
// its L2 may show at one footprint alone. 0: no cache seen.
uint64_t CacheEdgeBytes(const std::vector<std::pair<uint64_t, double>>& rates, bool confirmed);
const ColdCache& MeasuredColdCache(Context& context);
// The footprint of a cold rotation on `context` (MeasuredColdCache's).
uint64_t ColdFootprintBytes(Context& context);

// Bytes each copy of the DRAM ceilings copies: kRooflineBytes on a GPU; on a CPU device half the
// cold footprint (so the copy's traffic spans it), between 16 MiB and kRooflineBytes.
uint64_t CeilingCopyBytes(Context& context);

// The device's memory ceiling for a kernel, in GB/s, measured on first use: the best of
// vkCmdCopyBuffer and the copy kernel (bytes read + written a second, "copy"), or for a kernel
// that only reads, the read kernel's rate ("read"; never below the copy's: a read is never slower
// than a copy, which reads as much, and where the read kernel is, lavapipe runs its
// shared-memory fold slowly, the copy bounds the read ceiling from below). The read ceiling is
// measured only where a read-only kernel asks for it.
double MemoryCeilingGBs(Context& context, bool read_only);

// `bytes` / 4 random words, from a hash of each index and `bytes` (the same for the same size),
// made on the host's threads: the source of every copy and transfer ceiling.
std::vector<uint32_t> SourceWords(uint64_t bytes);

// GB/s of one copy of `bytes` bytes taking `seconds` (read and write both count).
double CopyGBs(uint64_t bytes, double seconds);

// What a Copier does with its `bytes` bytes: copy them (by the copy command where the workgroup
// is 0, else by copy.comp), or only read them (read.comp).
enum class Access { kCopy, kRead };

// GB/s of the copy kernel over a footprint of `footprint` bytes (a copy of half of them into the
// other half), repeated so that whatever cache holds the footprint serves it, net of one dependent
// dispatch a copy (`dispatch_seconds`); 0 where the footprint is at least the DRAM ceilings' own
// (2 x CeilingCopyBytes). Measured once per footprint.
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
