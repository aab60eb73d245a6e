#include "capture/tool/run_program.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace csbench::capture {

namespace {

std::string Joined(const char* name, const std::string& value) {
  const char* old = std::getenv(name);
  return old != nullptr && *old != '\0' ? value + ":" + old : value;
}

}  // namespace

std::map<std::string, std::string> LayerEnvironment(const std::string& layer_dir) {
  return {{"VK_ADD_LAYER_PATH", Joined("VK_ADD_LAYER_PATH", layer_dir)},
          {"VK_INSTANCE_LAYERS", Joined("VK_INSTANCE_LAYERS", "VK_LAYER_CSBENCH_capture")}};
}

ProgramResult RunProgram(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                         double timeout_s) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return {ProgramResult::End::kNotStarted, errno};
  pid_t child = fork();
  if (child < 0) return {ProgramResult::End::kNotStarted, errno};
  if (child == 0) {
    // Its own process group, so that a timeout ends whatever it started too.
    setpgid(0, 0);
    close(pipe_fds[0]);
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    int error = errno;
    // Tells the parent why exec failed; the pipe closes on a successful exec (O_CLOEXEC).
    ssize_t ignored = write(pipe_fds[1], &error, sizeof error);
    (void)ignored;
    _exit(127);
  }
  setpgid(child, child);
  close(pipe_fds[1]);
  int exec_error = 0;
  ssize_t got = read(pipe_fds[0], &exec_error, sizeof exec_error);
  close(pipe_fds[0]);
  int status = 0;
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    waitpid(child, &status, 0);
    return {ProgramResult::End::kNotStarted, exec_error};
  }
  auto start = std::chrono::steady_clock::now();
  bool timed_out = false;
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) return {ProgramResult::End::kNotStarted, errno};
    if (timeout_s > 0 && !timed_out && since() > timeout_s) {
      timed_out = true;
      kill(-child, SIGTERM);
      start = std::chrono::steady_clock::now();
    }
    if (timed_out && since() > 2.0) kill(-child, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (timed_out) return {ProgramResult::End::kTimedOut, 0};
  if (WIFSIGNALED(status)) return {ProgramResult::End::kSignalled, WTERMSIG(status)};
  return {ProgramResult::End::kExited, WEXITSTATUS(status)};
}

}  // namespace csbench::capture
