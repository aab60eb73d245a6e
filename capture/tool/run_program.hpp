// Runs the program under capture as a child process, with the layer enabled for it alone (the
// loader's variables are set in the child's environment, never in ours) and a time limit.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace csbench::capture {

struct ProgramResult {
  enum class End { kExited, kSignalled, kTimedOut, kNotStarted } end = End::kExited;
  int code = 0;  // the exit status, the signal, or errno where it did not start
};

// `timeout_s` 0 waits for ever. On timeout the child's process group gets SIGTERM, then SIGKILL
// two seconds later.
ProgramResult RunProgram(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                         double timeout_s);

// The loader's variables that add a layer folder and enable the layer, appended to what the
// environment already has: VK_ADD_LAYER_PATH (loader 1.3.234 and later: Debian 12's 1.3.239 and
// Debian 13's) and VK_INSTANCE_LAYERS (every loader).
std::map<std::string, std::string> LayerEnvironment(const std::string& layer_dir);

}  // namespace csbench::capture
