// Facts of the host the run is on: its CPU's name and the CPUs this process may use, which a CPU
// device's speed depends on and its baseline key names.
#pragma once

#include <string>

namespace csbench {

// The host CPU's model name, for the plain_loop backend's device entry.
std::string HostCpuName();

// The CPUs this process may run on (its affinity mask), which a CPU Vulkan driver spreads its
// work over; LP_NUM_THREADS, where set to a number, is llvmpipe's own choice and wins.
unsigned HostCpuCount();

// The key of a device whose speed is the host CPU's: "<ids>-<driver>-<host CPU>-<N>cpu", each part
// FileSafe. `ids` is "vendor-device", `driver` the driver's version string, less a distribution's
// packaging revision ("Mesa 25.0.7-2+deb13u1" keys as Mesa 25.0.7).
std::string CpuDeviceKey(const std::string& ids, const std::string& driver);

// Where the kernel gives transparent huge pages only to memory that asks for them
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise") and glibc's malloc is not yet told to
// ask: runs `argv` again with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES (glibc 2.35 and later
// then madvise every large allocation), and does not return. Elsewhere, or with
// CSBENCH_HUGE_PAGES=0, or where that exec fails, returns. A case's large host buffers (a
// manifest's 512 MiB inputs, outputs and expected values) cost a page fault per 4 KiB without:
// seconds for a fresh 512 MiB buffer on a small virtual machine, some forty times less in huge
// pages (docs/perf-notes.md, section 15).
void AskForHugePages(char** argv);
// "on" where malloc asks for huge pages (AskForHugePages ran it so), else why not; for the JSON.
std::string HugePagesState();

// Lowercase letters, digits and '-' only, for file names.
std::string FileSafe(const std::string& text);

}  // namespace csbench
