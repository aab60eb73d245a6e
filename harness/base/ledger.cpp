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

std::string ShortSeconds(double seconds) {
  if (seconds >= 1) return fmt::format("{:.1f} s", seconds);
  if (seconds >= 1e-3 || seconds <= 0) return fmt::format("{:.3g} s", seconds);
  return fmt::format("{:.3g} ms", seconds * 1e3);
}

bool OnFirstThread() { return std::this_thread::get_id() == TheAccounts().counted; }

ThreadPhase CurrentPhase() {
  ThreadPhase where{.first = OnFirstThread()};
  if (t_innermost != nullptr) where.phase = t_innermost->phase();
  return where;
}

void NoteDeviceTimed() {
  Accounts& a = TheAccounts();
  std::lock_guard lock(a.lock);
  a.spent.device_timed = true;
}

void AddDeviceSeconds(const ThreadPhase& where, double seconds) {
  Accounts& a = TheAccounts();
  std::lock_guard lock(a.lock);
  if (!where.phase) {
    (where.first ? a.spent.device_other : a.spent.ahead_device_other) += seconds;
  } else {
    (where.first ? a.spent.device : a.spent.ahead_device)[static_cast<size_t>(*where.phase)] += seconds;
  }
}

void NoteUnmeasuredSubmission() {
  Accounts& a = TheAccounts();
  std::lock_guard lock(a.lock);
  ++a.spent.device_unmeasured;
}

TimeSpent Spent() {
  Accounts& a = TheAccounts();
  std::lock_guard lock(a.lock);
  TimeSpent spent = a.spent;
  spent.wall_seconds = Now();
  return spent;
}

bool TimeSpent::AnyAhead() const {
  for (const PhaseSeconds* account : {&ahead, &ahead_device}) {
    for (double s : *account) {
      if (s > 0) return true;
    }
  }
  return ahead_device_locks > 0 || ahead_device_other > 0;
}

double TimeSpent::DeviceSeconds() const {
  double sum = device_other + ahead_device_other;
  for (size_t i = 0; i < device.size(); ++i) sum += device[i] + ahead_device[i];
  return sum;
}

namespace {

// " timed 2.3 s, check 0.4 s, other 0.1 s" for the phases that had any.
std::string DevicePhasesText(const PhaseSeconds& phases, double other) {
  std::string text;
  for (size_t i = 0; i < phases.size(); ++i) {
    if (phases[i] > 0) {
      text += fmt::format("{} {} {}", text.empty() ? "" : ",", ToString(static_cast<Phase>(i)),
                          ShortSeconds(phases[i]));
    }
  }
  if (other > 0) text += fmt::format("{} other {}", text.empty() ? "" : ",", ShortSeconds(other));
  return text.empty() ? " none" : text;
}

std::string DeviceText(const TimeSpent& spent) {
  if (!spent.device_timed) return "";
  std::string text = fmt::format("; device {}:{}", ShortSeconds(spent.DeviceSeconds()),
                                 DevicePhasesText(spent.device, spent.device_other));
  double ahead = spent.ahead_device_other;
  for (double s : spent.ahead_device) ahead += s;
  if (ahead > 0) text += "; beside the timed loop:" + DevicePhasesText(spent.ahead_device, spent.ahead_device_other);
  if (spent.device_unmeasured > 0) text += fmt::format("; {} submissions untimed", spent.device_unmeasured);
  return text;
}

}  // namespace

std::string ToText(const TimeSpent& spent) {
  std::string text = fmt::format("{:.1f} s:", spent.wall_seconds);
  for (size_t i = 0; i < spent.seconds.size(); ++i) {
    text += fmt::format(" {} {:.1f} s,", ToString(static_cast<Phase>(i)), spent.seconds[i]);
  }
  text += fmt::format(" other {:.1f} s", spent.Other());
  if (spent.AnyAhead()) {
    text += "; beside the timed loop:";
    for (size_t i = 0; i < spent.ahead.size(); ++i) {
      if (spent.ahead[i] > 0) text += fmt::format(" {} {:.1f} s,", ToString(static_cast<Phase>(i)), spent.ahead[i]);
    }
    text += fmt::format(" waiting for the device {:.1f} s ({} times)", spent.ahead_device_wait_seconds,
                        spent.ahead_device_locks);
  }
  return text + DeviceText(spent);
}

}  // namespace csbench
