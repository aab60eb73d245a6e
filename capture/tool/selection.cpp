#include "capture/tool/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace csbench::capture {

namespace {

bool AllDigits(const std::string& text) {
  return !text.empty() && text.size() <= 18 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The most frequent workgroup counts of a pipeline (the first to run among equals), direct and
// indirect dispatches counted alike; counts that would not replay only where it has no others.
std::optional<KeyRow> MostFrequent(const Summary& summary, uint32_t pipeline) {
  std::optional<KeyRow> best;
  auto replays = [&](const KeyRow& row) { return CountsProblem(row.groups, summary.limits).empty(); };
  for (const KeyRow& row : summary.keys) {
    if (row.pipeline != pipeline) continue;
    if (best && replays(*best) != replays(row)) {
      if (replays(row)) best = row;
      continue;
    }
    if (!best || row.count > best->count || (row.count == best->count && row.first_index < best->first_index))
      best = row;
  }
  return best;
}

// A sequence's dispatches as pass 1 found them: consecutive in one recording's one submission.
std::vector<KeyRow> SequenceSteps(const SelectionItem& item, const Summary& summary) {
  if (item.last >= summary.dispatches)
    throw std::invalid_argument(fmt::format(
        "--dispatches: '{}' runs past the program's dispatches: it submitted {} (indices 0 to {})", item.text,
        summary.dispatches, summary.dispatches == 0 ? 0 : summary.dispatches - 1));
  std::vector<KeyRow> steps;
  for (uint64_t i = item.number; i <= item.last; ++i) {
    auto it = summary.nth.find(i);
    if (it == summary.nth.end())
      throw std::invalid_argument(fmt::format(
          "--dispatches: '{}': dispatch {} is not a compute dispatch of a pipeline the layer saw", item.text, i));
    const KeyRow& row = it->second;
    if (!steps.empty()) {
      const KeyRow& first = steps.front();
      if (row.first.serial != first.first.serial || row.first.submission != first.first.submission)
        throw std::invalid_argument(fmt::format(
            "--dispatches: '{}' spans two recordings: dispatch {} ran in recording {} (its submission {}), dispatch "
            "{} in recording {} (its submission {}); a sequence is consecutive dispatches of one command buffer's "
            "recording, in one submission of it (the report lists them)",
            item.text, item.number, first.first.serial, first.first.submission, i, row.first.serial,
            row.first.submission));
      if (row.first.ordinal != first.first.ordinal + (i - item.number))
        throw std::invalid_argument(fmt::format(
            "--dispatches: '{}': dispatches {} and {} are not consecutive in their recording", item.text,
            item.number, i));
    }
    steps.push_back(row);
  }
  return steps;
}

std::string KeyName(const KeyRow& row) {
  return fmt::format("p{}_{}x{}x{}", row.pipeline, row.groups[0], row.groups[1], row.groups[2]);
}

}  // namespace

std::string CountsProblem(const std::array<uint32_t, 3>& groups, const std::array<uint32_t, 3>& limits) {
  if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0)
    return fmt::format("workgroup counts {} x {} x {}: a count of 0 runs no workgroup", groups[0], groups[1],
                       groups[2]);
  for (int d = 0; d < 3; ++d)
    if (limits[d] != 0 && groups[d] > limits[d])
      return fmt::format("workgroup counts {} x {} x {}: past the device's maxComputeWorkGroupCount ({}, {}, {})",
                         groups[0], groups[1], groups[2], limits[0], limits[1], limits[2]);
  return "";
}

std::vector<SelectionItem> ParseSelection(const std::string& text) {
  std::vector<SelectionItem> items;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    SelectionItem item{.text = part};
    if (part == "default") {
      item.kind = SelectionItem::Kind::kDefault;
    } else if (part == "all") {
      item.kind = SelectionItem::Kind::kAll;
    } else if (AllDigits(part)) {
      item.kind = SelectionItem::Kind::kIndex;
      item.number = std::stoull(part);
    } else if (part.starts_with("pipeline:") && AllDigits(part.substr(9))) {
      item.kind = SelectionItem::Kind::kPipeline;
      item.number = std::stoull(part.substr(9));
    } else if (part.starts_with("hash:") && part.size() > 5 && part.size() <= 5 + 64 &&
               std::all_of(part.begin() + 5, part.end(),
                           [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); })) {
      item.kind = SelectionItem::Kind::kHash;
      item.hash = part.substr(5);
      std::transform(item.hash.begin(), item.hash.end(), item.hash.begin(),
                     [](char c) { return static_cast<char>(std::tolower(c)); });
    } else if (part.starts_with("sequence:") && part.find('-') != std::string::npos &&
               AllDigits(part.substr(9, part.find('-') - 9)) && AllDigits(part.substr(part.find('-') + 1))) {
      item.kind = SelectionItem::Kind::kSequence;
      item.number = std::stoull(part.substr(9, part.find('-') - 9));
      item.last = std::stoull(part.substr(part.find('-') + 1));
      if (item.number > item.last)
        throw std::invalid_argument(
            fmt::format("--dispatches: '{}': the first dispatch comes after the last (sequence:N-M with N <= M)", part));
      if (item.last - item.number + 1 > kMostSequenceDispatches)
        throw std::invalid_argument(fmt::format("--dispatches: '{}': {} dispatches, more than a sequence's {}", part,
                                                item.last - item.number + 1, kMostSequenceDispatches));
    } else {
      throw std::invalid_argument(fmt::format(
          "--dispatches: '{}' is not a selection (default, all, N, pipeline:K, hash:HEX or sequence:N-M, separated "
          "by commas)",
          part));
    }
    items.push_back(item);
  }
  if (items.empty())
    throw std::invalid_argument("--dispatches: empty selection (default, all, N, pipeline:K, hash:HEX or sequence:N-M)");
  return items;
}

std::set<uint64_t> IndicesOf(const std::vector<SelectionItem>& items) {
  std::set<uint64_t> indices;
  for (const SelectionItem& item : items)
    if (item.kind == SelectionItem::Kind::kIndex) indices.insert(item.number);
    else if (item.kind == SelectionItem::Kind::kSequence)
      for (uint64_t i = item.number; i <= item.last; ++i) indices.insert(i);
  return indices;
}

std::vector<Chosen> Resolve(const std::vector<SelectionItem>& items, const Summary& summary,
                            const std::map<uint32_t, std::string>& hashes) {
  std::vector<Chosen> chosen;
  std::set<std::string> names;
  auto add = [&](const KeyRow& row, std::string why, std::string name, bool by_index = false,
                 std::vector<KeyRow> steps = {}) {
    // A size first dispatched indirectly cannot be known when pass 2 records it: its first
    // dispatch is found again by its place, and its counts read there are checked against these.
    if (!by_index && row.first_indirect) {
      by_index = true;
      why +=
          fmt::format("; its first, dispatch {}, was indirect: found again by its place, with the counts it reads then",
                      row.first_index);
    }
    if (names.insert(name).second)
      chosen.push_back({row, std::move(why), std::move(name), by_index, std::move(steps)});
  };
  auto add_pipeline = [&](uint32_t pipeline, const std::string& why) {
    std::optional<KeyRow> row = MostFrequent(summary, pipeline);
    if (!row) return false;
    add(*row,
        fmt::format("{}: pipeline {}'s most frequent workgroup counts ({} of its dispatches)", why, pipeline,
                    row->count),
        KeyName(*row));
    return true;
  };
  for (const SelectionItem& item : items) {
    bool found = false;
    switch (item.kind) {
      case SelectionItem::Kind::kDefault:
        for (const auto& [pipeline, entry] : summary.pipelines) found |= add_pipeline(pipeline, "default");
        break;
      case SelectionItem::Kind::kAll:
        for (const KeyRow& row : summary.keys) {
          add(row, fmt::format("all: {} dispatches of these counts", row.count), KeyName(row));
          found = true;
        }
        break;
      case SelectionItem::Kind::kPipeline:
        if (item.number <= UINT32_MAX) found = add_pipeline(static_cast<uint32_t>(item.number), item.text);
        break;
      case SelectionItem::Kind::kHash:
        for (const auto& [pipeline, hash] : hashes)
          if (hash.starts_with(item.hash)) found |= add_pipeline(pipeline, item.text);
        break;
      case SelectionItem::Kind::kIndex:
        if (auto it = summary.nth.find(item.number); it != summary.nth.end()) {
          add(it->second, fmt::format("dispatch {}", item.number),
              fmt::format("d{}_{}", item.number, KeyName(it->second)), true);
          found = true;
        }
        break;
      case SelectionItem::Kind::kSequence: {
        std::vector<KeyRow> steps = SequenceSteps(item, summary);
        KeyRow first = steps.front();
        std::string why =
            fmt::format("sequence {}-{} ({} dispatches of one recording)", item.number, item.last, steps.size());
        add(first, std::move(why), fmt::format("s{}-{}", item.number, item.last), true, std::move(steps));
        found = true;
        break;
      }
    }
    if (!found)
      throw std::invalid_argument(
          fmt::format("--dispatches: '{}' selects no dispatch the program made ({} dispatches, {} compute pipelines{})",
                      item.text, summary.dispatches, summary.pipelines.size(),
                      item.kind == SelectionItem::Kind::kIndex ? "; indices count from 0" : ""));
  }
  return chosen;
}

}  // namespace csbench::capture
