#include "harness/run/launcher.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <mutex>
#include <set>

#include "harness/run/reporters.hpp"
#include "harness/vulkan/device_choice.hpp"

namespace csbench {
namespace {

std::mutex g_children_lock;
std::vector<pid_t> g_children;  // running children, for PassOnSignal

void PassOnSignal(int signal_number) {
  std::vector<pid_t> children;
  {
    std::lock_guard lock(g_children_lock);
    children = g_children;
  }
  for (pid_t child : children) kill(child, signal_number);
  // Each child writes its finished benchmarks and exits; the interrupted run's files are whole.
  for (pid_t child : children) waitpid(child, nullptr, 0);
}

// Starts this program with `args`; its stdout and stderr go to `output` (-1: inherited).
pid_t Spawn(const std::vector<std::string>& args, int output) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // Only async-signal-safe calls between fork and exec: the signal thread exists.
  pid_t pid = fork();
  if (pid == 0) {
    if (output >= 0) {
      dup2(output, STDOUT_FILENO);
      dup2(output, STDERR_FILENO);
      close(output);
    }
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  if (pid > 0) {
    std::lock_guard lock(g_children_lock);
    g_children.push_back(pid);
  }
  return pid;
}

// The child's exit code, as CombineExitCodes() reads it.
int Wait(pid_t pid, const DeviceInfo& device) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  {
    std::lock_guard lock(g_children_lock);
    std::erase(g_children, pid);
  }
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 127) fmt::print(stderr, "csbench: device {}: could not start csbench\n", device.index);
    return WEXITSTATUS(status);
  }
  fmt::print(stderr, "csbench: device {} ({}): ended by signal {}\n", device.index, device.name,
             WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return 1;
}

std::vector<std::string> ArgsFor(const std::vector<std::string>& argv, const DeviceInfo& device) {
  std::vector<std::string> args;
  for (const auto& a : argv) {
    if (!a.starts_with("--device=")) args.push_back(a);
  }
  args.insert(args.begin() + 1, fmt::format("--device={}", device.index));
  return args;
}

// Copies each child's output to ours line by line, each line prefixed with its device.
void Relay(std::vector<int> fds, const std::vector<std::string>& prefixes) {
  std::vector<std::string> pending(fds.size());
  size_t open = fds.size();
  while (open > 0) {
    std::vector<pollfd> polled;
    for (int fd : fds) polled.push_back({.fd = fd, .events = POLLIN, .revents = 0});
    if (poll(polled.data(), polled.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i] < 0 || polled[i].revents == 0) continue;
      char chunk[4096];
      ssize_t got = read(fds[i], chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got > 0) pending[i].append(chunk, static_cast<size_t>(got));
      size_t end;
      while ((end = pending[i].find('\n')) != std::string::npos) {
        fmt::print("{}{}\n", prefixes[i], std::string_view(pending[i]).substr(0, end));
        pending[i].erase(0, end + 1);
      }
      if (got <= 0) {
        if (!pending[i].empty()) fmt::print("{}{}\n", prefixes[i], pending[i]);
        close(fds[i]);
        fds[i] = -1;
        --open;
      }
    }
    std::fflush(stdout);
  }
}

}  // namespace

int CombineExitCodes(const std::vector<int>& codes) {
  for (int code : {2, 143, 130}) {
    if (std::find(codes.begin(), codes.end(), code) != codes.end()) return code;
  }
  if (std::any_of(codes.begin(), codes.end(), [](int c) { return c != 0 && c != 3; })) return 1;
  if (std::find(codes.begin(), codes.end(), 3) != codes.end()) return 3;
  return 0;
}

void CheckOutputsDiffer(const std::string& out_pattern, const std::vector<DeviceInfo>& chosen) {
  if (out_pattern.empty() || chosen.size() < 2) return;
  std::set<std::string> paths;
  for (const auto& d : chosen) {
    if (!paths.insert(ExpandDevicePlaceholders(out_pattern, std::to_string(d.index), d.Key())).second) {
      throw UsageError{fmt::format(
          "--benchmark_out={} names the same file for two of the {} devices: put {{device}} (the "
          "device's index) or {{device_key}} (its baseline key; the same for two GPUs of one model) in it",
          out_pattern, chosen.size())};
    }
  }
}

int RunOnEachDevice(const std::vector<std::string>& argv, const std::vector<DeviceInfo>& chosen, bool parallel) {
  SetInterruptForwarder(&PassOnSignal);
  std::string names;
  for (const auto& d : chosen) names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", d.index, d.name);
  fmt::print(stderr, "csbench: {} devices, {}: {}\n", chosen.size(), parallel ? "in parallel" : "one after another",
             names);
  std::vector<int> codes;
  if (!parallel) {
    for (size_t i = 0; i < chosen.size(); ++i) {
      fmt::print(stderr, "csbench: device {} of {}: {} ({})\n", i + 1, chosen.size(), chosen[i].index,
                 chosen[i].name);
      std::fflush(stdout);
      pid_t pid = Spawn(ArgsFor(argv, chosen[i]), -1);
      codes.push_back(pid < 0 ? 1 : Wait(pid, chosen[i]));
    }
  } else {
    std::vector<pid_t> pids;
    std::vector<int> fds;
    std::vector<std::string> prefixes;
    std::fflush(stdout);
    for (const auto& d : chosen) {
      int pipe_fds[2];
      if (pipe(pipe_fds) != 0) {
        pids.push_back(-1);
        continue;
      }
      pids.push_back(Spawn(ArgsFor(argv, d), pipe_fds[1]));
      close(pipe_fds[1]);
      fds.push_back(pipe_fds[0]);
      prefixes.push_back(fmt::format("[device {}] ", d.index));
    }
    Relay(fds, prefixes);
    for (size_t i = 0; i < chosen.size(); ++i) codes.push_back(pids[i] < 0 ? 1 : Wait(pids[i], chosen[i]));
  }
  for (size_t i = 0; i < chosen.size(); ++i) {
    fmt::print(stderr, "csbench: device {} ({}): exit code {}\n", chosen[i].index, chosen[i].name, codes[i]);
  }
  return CombineExitCodes(codes);
}

}  // namespace csbench
