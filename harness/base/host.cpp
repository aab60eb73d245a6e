#include "harness/base/host.hpp"

#include <fmt/format.h>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <thread>

namespace csbench {

std::string HostCpuName() {
  // Read once a process: the run's context and its baseline key both name the host CPU.
  static const std::string name = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
      if (line.starts_with("model name")) {
        auto colon = line.find(':');
        if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
      }
    }
    return std::string("unknown cpu");
  }();
  return name;
}

unsigned HostCpuCount() {
  if (const char* threads = std::getenv("LP_NUM_THREADS"); threads != nullptr) {
    unsigned n = 0;
    auto [end, error] = std::from_chars(threads, threads + std::strlen(threads), n);
    if (error == std::errc() && *end == '\0' && n > 0) return n;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string CpuDeviceKey(const std::string& ids, const std::string& driver) {
  // A distribution's packaging revision ("25.0.7-2+deb13u1") rebuilds the same upstream release:
  // without it, a stable update keeps the key and the baseline.
  static const std::regex kRevision(R"((\d+\.\d+(?:\.\d+)?)-[0-9][0-9A-Za-z.+~]*)");
  return fmt::format("{}-{}-{}-{}cpu", ids, FileSafe(std::regex_replace(driver, kRevision, "$1")),
                     FileSafe(HostCpuName()), HostCpuCount());
}

std::string FileSafe(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c)) {
      out += static_cast<char>(std::tolower(c));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

namespace {

constexpr const char* kHugeTunable = "glibc.malloc.hugetlb=1";

std::string TransparentHugePagesMode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  const size_t open = line.find('[');
  const size_t close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return {};
  return line.substr(open + 1, close - open - 1);
}

bool TunableSet() {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  return tunables != nullptr && std::string(tunables).find("glibc.malloc.hugetlb=") != std::string::npos;
}

}  // namespace

void AskForHugePages(char** argv) {
  const char* choice = std::getenv("CSBENCH_HUGE_PAGES");
  if ((choice != nullptr && std::string(choice) == "0") || TunableSet()) return;
  if (TransparentHugePagesMode() != "madvise") return;
  const char* old = std::getenv("GLIBC_TUNABLES");
  const std::string tunables = old != nullptr && *old != '\0' ? std::string(old) + ":" + kHugeTunable : kHugeTunable;
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed (no /proc): go on as before, with the environment as it was.
  if (old != nullptr) {
    setenv("GLIBC_TUNABLES", old, 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

std::string HugePagesState() {
  if (TunableSet()) return std::string("on (GLIBC_TUNABLES has glibc.malloc.hugetlb)");
  const std::string mode = TransparentHugePagesMode();
  if (mode.empty()) return "off: the kernel says nothing of transparent huge pages";
  if (mode != "madvise") return "kernel's own: transparent huge pages " + mode;
  return "off (CSBENCH_HUGE_PAGES=0)";
}

}  // namespace csbench
