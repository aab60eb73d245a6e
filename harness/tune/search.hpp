// How a tuning search picks the points of a space it looks at: every one in order (exhaustive),
// a random sample (random), or random points first and then those a model of the points looked
// at predicts fastest (model). A search only proposes and learns; the tuner (tuner.hpp) measures,
// keeps the budget and races the best. Pure: no device, no files, so each strategy is tested
// on spaces made up for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/base/options.hpp"

namespace csbench {

// One point of a space: its value on each dimension (variant, workgroup, each axis), as text. Every
// point of one space has the same dimensions in the same order.
struct SpacePoint {
  std::vector<std::string> values;
};

class Search {
 public:
  virtual ~Search() = default;
  // Up to `most` points (indices into the space) not proposed before; none when the strategy has
  // nothing more to look at.
  virtual std::vector<size_t> Next(size_t most) = 0;
  // What a look at `point` found: its throughput (larger is faster), or none where the point
  // failed (its check, its compile, the device's limits).
  virtual void Tell(size_t point, std::optional<double> throughput) = 0;
};

std::unique_ptr<Search> MakeSearch(TuneStrategy strategy, std::vector<SpacePoint> space, uint64_t seed);

// The looks a strategy takes where --tune-budget gives none: every point for exhaustive; for the
// others, so that the search with its race (at most `race` measurements after the looks) measures
// at most a tenth of what an exhaustive one looks at, a tenth of the space (rounded up) less
// `race`, at least 16 and never more than the space.
size_t DefaultBudget(TuneStrategy strategy, size_t space, size_t race);

// The model-based search's model, exposed for its test: a ridge regression of the logarithm of
// throughput on each dimension's value and on each pair of dimensions' values together (a tile's
// rows and columns matter jointly), fitted to the points looked at.
class PairModel {
 public:
  explicit PairModel(const std::vector<SpacePoint>& space);
  // Fits to `looked` (indices into the space) and their throughputs (above 0).
  void Fit(const std::vector<size_t>& looked, const std::vector<double>& throughputs);
  // The predicted logarithm of throughput at a point of the space.
  double Predict(size_t point) const;

 private:
  std::vector<std::vector<size_t>> features_;  // per point, the indices of its features that are 1
  size_t feature_count_ = 0;
  std::vector<double> weights_;
  double mean_ = 0;
};

}  // namespace csbench
