#include "harness/tune/search.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <utility>

namespace csbench {

namespace {

// Indices 0 .. n-1 in an order drawn from `seed`: a Fisher-Yates shuffle by the generator's own
// words, so that a seed draws the same points with every standard library (std::shuffle's order
// is the library's choice), and a widened search with the same seed looks at the same points first.
std::vector<size_t> Shuffled(size_t n, uint64_t seed) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 draw(seed);
  for (size_t i = n; i > 1; --i) std::swap(order[i - 1], order[draw() % i]);
  return order;
}

class InOrder : public Search {
 public:
  InOrder(std::vector<size_t> order) : order_(std::move(order)) {}
  std::vector<size_t> Next(size_t most) override {
    std::vector<size_t> next;
    while (next.size() < most && at_ < order_.size()) next.push_back(order_[at_++]);
    return next;
  }
  void Tell(size_t, std::optional<double>) override {}

 private:
  std::vector<size_t> order_;
  size_t at_ = 0;
};

// Random points until a few have been seen, then rounds of four: the best point's neighbour (one
// dimension changed) the model predicts fastest, the points it predicts fastest anywhere, and one
// drawn at random, so that a wrong model keeps learning where it is wrong.
class ModelSearch : public Search {
 public:
  ModelSearch(std::vector<SpacePoint> space, uint64_t seed)
      : size_(space.size()),
        model_(space),
        random_(Shuffled(space.size(), seed)),
        proposed_(space.size(), false),
        space_(std::move(space)) {}

  std::vector<size_t> Next(size_t most) override {
    std::vector<size_t> next;
    const bool enough = looked_.size() >= kFirstRandom || looked_.size() + failed_ >= size_;
    if (!enough) {
      while (next.size() < std::min(most, kFirstRandom - looked_.size()) && Random(next)) {
      }
      return next;
    }
    model_.Fit(looked_, throughputs_);
    std::vector<std::pair<double, size_t>> predicted;
    for (size_t p = 0; p < size_; ++p) {
      if (!proposed_[p]) predicted.emplace_back(model_.Predict(p), p);
    }
    // Best first; ties by index, so that a fit is reproducible.
    std::sort(predicted.begin(), predicted.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const size_t batch = std::min(most, kBatch);
    // The incumbent's neighbour the model likes best (one dimension changed): the model's picks
    // are where it believes, this is where the best point so far says to look.
    const size_t best = looked_[static_cast<size_t>(std::max_element(throughputs_.begin(), throughputs_.end()) -
                                                    throughputs_.begin())];
    if (batch >= 3) {
      for (const auto& [value, p] : predicted) {
        size_t differ = 0;
        for (size_t d = 0; d < space_[p].values.size(); ++d) differ += space_[p].values[d] != space_[best].values[d];
        if (differ != 1) continue;
        next.push_back(p);
        proposed_[p] = true;
        break;
      }
    }
    const size_t from_model = batch > 1 ? batch - 1 : batch;
    for (const auto& [value, p] : predicted) {
      if (next.size() >= from_model) break;
      if (proposed_[p]) continue;
      next.push_back(p);
      proposed_[p] = true;
    }
    if (next.size() < batch) Random(next);
    return next;
  }

  void Tell(size_t point, std::optional<double> throughput) override {
    if (!throughput || !(*throughput > 0)) {
      ++failed_;
      return;
    }
    looked_.push_back(point);
    throughputs_.push_back(*throughput);
  }

 private:
  // Points drawn at random before the model is trusted, and proposed per round after.
  static constexpr size_t kFirstRandom = 12;
  static constexpr size_t kBatch = 4;

  // Adds the next random point not yet proposed; false when none is left.
  bool Random(std::vector<size_t>& next) {
    while (random_at_ < random_.size() && proposed_[random_[random_at_]]) ++random_at_;
    if (random_at_ == random_.size()) return false;
    next.push_back(random_[random_at_]);
    proposed_[random_[random_at_]] = true;
    return true;
  }

  size_t size_;
  PairModel model_;
  std::vector<size_t> random_;
  size_t random_at_ = 0;
  std::vector<bool> proposed_;
  std::vector<size_t> looked_;
  std::vector<double> throughputs_;
  size_t failed_ = 0;
  std::vector<SpacePoint> space_;
};

// Solves (A) x = b for a symmetric positive definite A (n x n, row-major) by Cholesky; A is
// overwritten.
std::vector<double> SolveSymmetric(std::vector<double>& a, std::vector<double> b, size_t n) {
  for (size_t j = 0; j < n; ++j) {
    double d = a[j * n + j];
    for (size_t k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    d = std::sqrt(std::max(d, 1e-12));
    a[j * n + j] = d;
    for (size_t i = j + 1; i < n; ++i) {
      double s = a[i * n + j];
      for (size_t k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
  for (size_t i = n; i-- > 0;) {
    for (size_t k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  return b;
}

}  // namespace

PairModel::PairModel(const std::vector<SpacePoint>& space) {
  // A feature per (dimension, value) and per (dimension, value, other dimension, its value).
  std::map<std::pair<size_t, std::string>, size_t> single;
  std::map<std::tuple<size_t, std::string, size_t, std::string>, size_t> pair;
  for (const SpacePoint& point : space) {
    std::vector<size_t> on;
    const size_t dims = point.values.size();
    for (size_t d = 0; d < dims; ++d) {
      auto [it, added] = single.try_emplace({d, point.values[d]}, feature_count_);
      if (added) ++feature_count_;
      on.push_back(it->second);
    }
    for (size_t d = 0; d < dims; ++d) {
      for (size_t e = d + 1; e < dims; ++e) {
        auto [it, added] = pair.try_emplace({d, point.values[d], e, point.values[e]}, feature_count_);
        if (added) ++feature_count_;
        on.push_back(it->second);
      }
    }
    features_.push_back(std::move(on));
  }
  weights_.assign(feature_count_, 0);
}

void PairModel::Fit(const std::vector<size_t>& looked, const std::vector<double>& throughputs) {
  const size_t n = feature_count_;
  std::vector<double> y;
  for (double t : throughputs) y.push_back(std::log(t));
  mean_ = y.empty() ? 0 : std::accumulate(y.begin(), y.end(), 0.0) / static_cast<double>(y.size());
  // Ridge: (X'X + lambda I) w = X'(y - mean). Features are 0/1, so X'X counts co-occurrences.
  // lambda 1: a value seen once moves its weight half of its residual, so a single lucky look
  // does not decide the next round alone.
  constexpr double kLambda = 1.0;
  std::vector<double> a(n * n, 0), b(n, 0);
  for (size_t k = 0; k < looked.size(); ++k) {
    const std::vector<size_t>& on = features_[looked[k]];
    for (size_t i : on) {
      b[i] += y[k] - mean_;
      for (size_t j : on) a[i * n + j] += 1;
    }
  }
  for (size_t i = 0; i < n; ++i) a[i * n + i] += kLambda;
  weights_ = SolveSymmetric(a, b, n);
}

double PairModel::Predict(size_t point) const {
  double value = mean_;
  for (size_t i : features_[point]) value += weights_[i];
  return value;
}

std::unique_ptr<Search> MakeSearch(TuneStrategy strategy, std::vector<SpacePoint> space, uint64_t seed) {
  switch (strategy) {
    case TuneStrategy::kExhaustive: {
      std::vector<size_t> order(space.size());
      std::iota(order.begin(), order.end(), size_t{0});
      return std::make_unique<InOrder>(std::move(order));
    }
    case TuneStrategy::kRandom: return std::make_unique<InOrder>(Shuffled(space.size(), seed));
    case TuneStrategy::kModel: return std::make_unique<ModelSearch>(std::move(space), seed);
  }
  return nullptr;
}

size_t DefaultBudget(TuneStrategy strategy, size_t space, size_t race) {
  if (strategy == TuneStrategy::kExhaustive) return space;
  const size_t tenth = (space + 9) / 10;
  return std::min(space, std::max<size_t>(16, tenth > race ? tenth - race : 0));
}

}  // namespace csbench
