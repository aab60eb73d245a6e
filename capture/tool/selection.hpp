// --dispatches: which dispatches a capture writes, parsed before the program runs and resolved
// against pass 1's summary.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "capture/tool/raw.hpp"

namespace csbench::capture {

// The most dispatches one sequence may hold (a manifest's variant takes up to 64 passes).
inline constexpr uint64_t kMostSequenceDispatches = 64;

struct SelectionItem {
  enum class Kind { kDefault, kAll, kIndex, kPipeline, kHash, kSequence } kind = Kind::kDefault;
  uint64_t number = 0;  // the index, the pipeline, or a sequence's first index
  uint64_t last = 0;    // a sequence's last index
  std::string hash;     // a prefix of the SPIR-V's SHA-256, lower case
  std::string text;     // as given, for messages
};

// Parses "default", "all", "N", "pipeline:K", "hash:HEX", "sequence:N-M", or a comma-separated
// list of them.
// Throws std::invalid_argument with the message to print.
std::vector<SelectionItem> ParseSelection(const std::string& text);

// The dispatch indices pass 1 must locate (each of a sequence's).
std::set<uint64_t> IndicesOf(const std::vector<SelectionItem>& items);

// Why a dispatch of these workgroup counts is not replayed: a count of 0 in any dimension, or one
// past the device's maxComputeWorkGroupCount `limits` (a limit of 0: not known, not checked); ""
// where neither. An indirect dispatch's counts are data, and may be either.
std::string CountsProblem(const std::array<uint32_t, 3>& groups, const std::array<uint32_t, 3>& limits);

struct Chosen {
  KeyRow row;             // pipeline, workgroup counts, how often, where it first ran (or the Nth ran)
  std::string why;        // "pipeline 1's most frequent size", "dispatch 12"
  std::string name;       // the folder: p<pipeline>_<X>x<Y>x<Z>, or d<N>_p<pipeline>_... for an index
  // The Nth dispatch, or a size whose first dispatch was indirect (its counts are known only once
  // it ran), found again by its place; else by its key.
  bool by_index = false;
  // A sequence (found again by its place, row.first: its first dispatch's): each dispatch's key
  // and place, in order.
  std::vector<KeyRow> steps;
};

// The dispatches the items select, each once, in pipeline order. A pipeline's most frequent size is
// among those with no CountsProblem where it has any. A sequence whose dispatches are
// not consecutive dispatches of one recording's one submission, or that runs past the program's
// dispatches, throws std::invalid_argument saying why. `hashes` maps each pipeline to
// its SPIR-V's SHA-256. An item that selects nothing throws std::invalid_argument.
std::vector<Chosen> Resolve(const std::vector<SelectionItem>& items, const Summary& summary,
                            const std::map<uint32_t, std::string>& hashes);

}  // namespace csbench::capture
