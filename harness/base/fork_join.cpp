#include "harness/base/fork_join.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace csbench {

ForkJoin::ForkJoin(uint32_t threads) : threads_(std::max(threads, 1u)) {
  workers_.reserve(threads_ - 1);
  for (uint32_t i = 1; i < threads_; ++i) workers_.emplace_back([this, i] { Work(i); });
}

ForkJoin::~ForkJoin() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
}

void ForkJoin::Run(const std::function<void(uint32_t)>& part) {
  {
    std::lock_guard lock(mutex_);
    part_ = &part;
    error_ = nullptr;
    running_ = threads_ - 1;
    ++generation_;
  }
  start_.notify_all();
  std::exception_ptr own;
  try {
    part(0);
  } catch (...) {
    own = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return running_ == 0; });
  part_ = nullptr;
  if (own) std::rethrow_exception(own);
  if (error_) std::rethrow_exception(error_);
}

void ForkJoin::Work(uint32_t index) {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    const std::function<void(uint32_t)>* part = part_;
    lock.unlock();
    std::exception_ptr failed;
    try {
      (*part)(index);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    if (failed && !error_) error_ = failed;
    if (--running_ == 0) done_.notify_one();
  }
}

uint32_t MeasuredPathThreads() {
  const uint32_t hardware = std::thread::hardware_concurrency();
  return std::clamp(hardware / 2, 1u, 8u);
}

void ParallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body, size_t align) {
  align = std::max<size_t>(align, 1);
  const size_t hardware = std::max<size_t>(std::thread::hardware_concurrency(), 1);
  const size_t parts = std::clamp<size_t>(n / std::max<size_t>(grain, 1), 1, hardware);
  size_t chunk = (n + parts - 1) / parts;
  chunk = (chunk + align - 1) / align * align;
  if (parts <= 1 || chunk >= n) {
    if (n > 0) body(0, n);
    return;
  }
  std::vector<std::exception_ptr> errors((n + chunk - 1) / chunk);
  {
    std::vector<std::jthread> threads;
    for (size_t i = 1; i < errors.size(); ++i) {
      threads.emplace_back([&, i] {
        try {
          body(i * chunk, std::min(n, (i + 1) * chunk));
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
    try {
      body(0, chunk);
    } catch (...) {
      errors[0] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

size_t FirstInRanges(size_t n, const std::function<size_t(size_t, size_t)>& first_in) {
  std::mutex lock;
  size_t first = n;
  ParallelFor(n, kScanGrain, [&](size_t begin, size_t end) {
    const size_t i = first_in(begin, end);
    if (i >= end) return;
    std::lock_guard guard(lock);
    first = std::min(first, i);
  });
  return first;
}

size_t FirstWhere(size_t n, const std::function<bool(size_t)>& found) {
  return FirstInRanges(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (found(i)) return i;
    }
    return end;
  });
}

Worst WorstOf(size_t n, const std::function<double(size_t)>& error) {
  std::mutex lock;
  Worst worst;
  ParallelFor(n, kScanGrain, [&](size_t begin, size_t end) {
    Worst part;
    for (size_t i = begin; i < end; ++i) {
      double e = error(i);
      if (std::isnan(e)) e = std::numeric_limits<double>::infinity();
      if (e > part.error) part = {.error = e, .index = i};
    }
    std::lock_guard guard(lock);
    if (part.error > worst.error || (part.error == worst.error && part.error > 0 && part.index < worst.index)) {
      worst = part;
    }
  });
  return worst;
}

double OrderedSum(size_t n, const std::function<double(size_t)>& value) {
  const size_t chunks = (n + kScanGrain - 1) / kScanGrain;
  std::vector<double> sums(chunks, 0.0);
  ParallelFor(chunks, 1, [&](size_t begin, size_t end) {
    for (size_t c = begin; c < end; ++c) {
      double sum = 0;
      for (size_t i = c * kScanGrain; i < std::min(n, (c + 1) * kScanGrain); ++i) sum += value(i);
      sums[c] = sum;
    }
  });
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

}  // namespace csbench
