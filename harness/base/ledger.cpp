#include "harness/base/ledger.hpp"

#include <fmt/format.h>

#include <chrono>
#include <mutex>
#include <thread>

namespace csbench {
namespace {

using Clock = std::chrono::steady_clock;

const Clock::time_point kProcessStart = Clock::now();

double Now() { return std::chrono::duration<double>(Clock::now() - kProcessStart).count(); }

struct Accounts {
  std::mutex lock;
  std::thread::id counted = std::this_thread::get_id();  // the thread that ran static initialisation
  TimeSpent spent;
};

// Made during static initialisation, on the process's first thread.
Accounts g_accounts;

Accounts& TheAccounts() { return g_accounts; }

thread_local Spending* t_innermost = nullptr;

void Add(Phase phase, double seconds) {
  Accounts& a = TheAccounts();
  const bool first = std::this_thread::get_id() == a.counted;
  std::lock_guard lock(a.lock);
  (first ? a.spent.seconds : a.spent.ahead)[static_cast<size_t>(phase)] += seconds;
}

}  // namespace

std::string_view ToString(Phase phase) {
  switch (phase) {
    case Phase::kCase: return "case";
    case Phase::kCheck: return "check";
    case Phase::kWarmUp: return "warm_up";
    case Phase::kClockRaise: return "clock_raise";
    case Phase::kGuard: return "guard";
    case Phase::kCalibration: return "calibration";
    case Phase::kTimed: return "timed";
    case Phase::kCeiling: return "ceiling";
    case Phase::kRelease: return "release";
    case Phase::kMeasure: return "measure";
    case Phase::kCount: break;
  }
  return "?";
}

Spending::Spending(Phase phase) : phase_(phase), outer_(t_innermost), started_(Now()) {
  if (outer_ != nullptr) Add(outer_->phase_, started_ - outer_->started_);
  t_innermost = this;
}

Spending::~Spending() {
  const double now = Now();
  Add(phase_, now - started_);
  t_innermost = outer_;
  if (outer_ != nullptr) outer_->started_ = now;
}

void NoteDeviceLock(double seconds) {
  Accounts& a = TheAccounts();
  const bool first = std::this_thread::get_id() == a.counted;
  std::lock_guard lock(a.lock);
  if (first) {
    a.spent.device_wait_seconds += seconds;
  } else {
    a.spent.ahead_device_wait_seconds += seconds;
    ++a.spent.ahead_device_locks;
  }
}

double TimeSpent::Other() const {
  double sum = 0;
  for (double s : seconds) sum += s;
  return wall_seconds - sum;
}

double SecondsSinceStart() { return Now(); }

bool OnFirstThread() { return std::this_thread::get_id() == TheAccounts().counted; }

TimeSpent Spent() {
  Accounts& a = TheAccounts();
  std::lock_guard lock(a.lock);
  TimeSpent spent = a.spent;
  spent.wall_seconds = Now();
  return spent;
}

bool TimeSpent::AnyAhead() const {
  for (double s : ahead) {
    if (s > 0) return true;
  }
  return ahead_device_locks > 0;
}

std::string ToText(const TimeSpent& spent) {
  std::string text = fmt::format("{:.1f} s:", spent.wall_seconds);
  for (size_t i = 0; i < spent.seconds.size(); ++i) {
    text += fmt::format(" {} {:.1f} s,", ToString(static_cast<Phase>(i)), spent.seconds[i]);
  }
  text += fmt::format(" other {:.1f} s", spent.Other());
  if (!spent.AnyAhead()) return text;
  text += "; beside the timed loop:";
  for (size_t i = 0; i < spent.ahead.size(); ++i) {
    if (spent.ahead[i] > 0) text += fmt::format(" {} {:.1f} s,", ToString(static_cast<Phase>(i)), spent.ahead[i]);
  }
  return text + fmt::format(" waiting for the device {:.1f} s ({} times)", spent.ahead_device_wait_seconds,
                            spent.ahead_device_locks);
}

}  // namespace csbench
