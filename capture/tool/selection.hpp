// --dispatches: which dispatches a capture writes, parsed before the program runs and resolved
// against pass 1's summary.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "capture/tool/raw.hpp"

namespace csbench::capture {

struct SelectionItem {
  enum class Kind { kDefault, kAll, kIndex, kPipeline, kHash } kind = Kind::kDefault;
  uint64_t number = 0;  // the index or the pipeline
  std::string hash;     // a prefix of the SPIR-V's SHA-256, lower case
  std::string text;     // as given, for messages
};

// Parses "default", "all", "N", "pipeline:K", "hash:HEX", or a comma-separated list of them.
// Throws std::invalid_argument with the message to print.
std::vector<SelectionItem> ParseSelection(const std::string& text);

// The dispatch indices pass 1 must locate.
std::set<uint64_t> IndicesOf(const std::vector<SelectionItem>& items);

struct Chosen {
  KeyRow row;             // pipeline, workgroup counts, how often, where it first ran (or the Nth ran)
  std::string why;        // "pipeline 1's most frequent size", "dispatch 12"
  std::string name;       // the folder: p<pipeline>_<X>x<Y>x<Z>, or d<N>_p<pipeline>_... for an index
  bool by_index = false;  // the Nth dispatch, found again by its place; else by its key
};

// The dispatches the items select, each once, in pipeline order. `hashes` maps each pipeline to
// its SPIR-V's SHA-256. An item that selects nothing throws std::invalid_argument.
std::vector<Chosen> Resolve(const std::vector<SelectionItem>& items, const Summary& summary,
                            const std::map<uint32_t, std::string>& hashes);

}  // namespace csbench::capture
