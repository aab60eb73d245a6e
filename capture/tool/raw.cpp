#include "capture/tool/raw.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

namespace csbench::capture {

namespace {

std::vector<uint8_t> FromHex(const std::string& text) {
  std::vector<uint8_t> bytes;
  if (text == "-") return bytes;
  for (size_t i = 0; i + 1 < text.size(); i += 2)
    bytes.push_back(static_cast<uint8_t>(std::stoul(text.substr(i, 2), nullptr, 16)));
  return bytes;
}

std::string Rest(std::istringstream& in) {
  std::string rest;
  std::getline(in >> std::ws, rest);
  return rest;
}

}  // namespace

std::vector<uint8_t> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::optional<Summary> ReadSummary(const std::filesystem::path& dir) {
  std::ifstream in(dir / "summary.txt");
  if (!in) return std::nullopt;
  Summary summary;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what == "dispatches") {
      words >> summary.dispatches;
    } else if (what == "pipeline") {
      uint32_t id = 0;
      std::string signature, spirv;
      words >> id >> signature >> spirv;
      summary.signatures[id] = signature;
      if (spirv == "spirv") summary.pipelines[id] = Rest(words);
    } else if (what == "key") {
      KeyRow row;
      int first_indirect = 0;
      words >> row.pipeline >> row.groups[0] >> row.groups[1] >> row.groups[2] >> row.count >> row.first.serial >>
          row.first.ordinal >> row.first.submission >> row.first_index >> row.indirect >> first_indirect;
      row.first_indirect = first_indirect != 0;
      summary.keys.push_back(row);
    } else if (what == "indirect" || what == "base" || what == "unread") {
      uint32_t pipeline = 0;
      uint64_t count = 0;
      words >> pipeline >> count;
      (what == "indirect" ? summary.indirect : what == "base" ? summary.based : summary.unread)[pipeline] = count;
    } else if (what == "limits") {
      words >> summary.limits[0] >> summary.limits[1] >> summary.limits[2];
    } else if (what == "nth") {
      uint64_t index = 0;
      KeyRow row;
      words >> index >> row.pipeline >> row.groups[0] >> row.groups[1] >> row.groups[2] >> row.first.serial >>
          row.first.ordinal >> row.first.submission;
      row.first_index = index;
      summary.nth[index] = row;
    } else if (what == "run") {
      RunRow run;
      int transfers = 0;
      words >> run.count >> run.first.serial >> run.first.submission >> run.first_index >> run.dispatches >> transfers;
      run.transfers = transfers != 0;
      for (int64_t p = 0; words >> p;) run.pipelines.push_back(p);
      summary.runs.push_back(run);
    } else if (what == "note") {
      summary.notes.push_back(Rest(words));
    }
  }
  return summary;
}

namespace {

std::vector<uint32_t> ReadSpirv(const std::filesystem::path& path) {
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

}  // namespace

std::optional<RawCapture> ReadCapture(const std::filesystem::path& dir) {
  std::ifstream in(dir / "info.txt");
  if (!in) return std::nullopt;
  RawCapture capture;
  // A sequence's step lines: entry, signature, spec and push are the latest step's.
  RawStep* step = nullptr;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    std::string& entry = step != nullptr ? step->entry : capture.entry;
    std::string& signature = step != nullptr ? step->signature : capture.signature;
    auto& spec = step != nullptr ? step->spec : capture.spec;
    std::vector<uint8_t>& push = step != nullptr ? step->push : capture.push;
    if (what == "pipeline") {
      words >> capture.pipeline;
    } else if (what == "groups") {
      words >> capture.groups[0] >> capture.groups[1] >> capture.groups[2];
    } else if (what == "sequence") {
      capture.sequence = true;
    } else if (what == "step") {
      step = &capture.steps.emplace_back();
      words >> step->pipeline >> step->groups[0] >> step->groups[1] >> step->groups[2];
    } else if (what == "slots" && step != nullptr) {
      for (std::array<uint32_t, 4> slot{}; words >> slot[0] >> slot[1] >> slot[2] >> slot[3];)
        step->slots.push_back(slot);
    } else if (what == "signature") {
      words >> signature;
    } else if (what == "entry") {
      entry = Rest(words);
    } else if (what == "spec") {
      uint32_t id = 0;
      std::string hex;
      words >> id >> hex;
      spec[id] = FromHex(hex);
    } else if (what == "push") {
      std::string hex;
      words >> hex;
      push = FromHex(hex);
    } else if (what == "indirect") {
      IndirectSource& source = step != nullptr ? step->source : capture.source;
      std::string read;
      words >> source.offset >> source.buffer_size >> read;
      source.indirect = true;
      source.read = read == "read";
    } else if (what == "limits") {
      words >> capture.limits[0] >> capture.limits[1] >> capture.limits[2];
    } else if (what == "binding") {
      RawBinding b;
      std::string data;
      std::string image;
      words >> b.set >> b.binding >> b.element >> b.bytes >> data >> image;
      b.data = data == "data";
      if (image == "image") {
        b.image = true;
        std::string sampled;
        int unnormalized = 0;
        words >> b.width >> b.height >> b.format >> sampled;
        if (sampled == "sampled" && words >> b.filter >> b.address >> b.border >> unnormalized) {
          b.sampled = true;
          b.unnormalized = unnormalized != 0;
          if (b.border == "-") b.border.clear();
        }
        if (sampled == "separate") b.sampled = b.separate = true;
      }
      capture.bindings.push_back(b);
    } else if (what == "sampler") {
      RawBinding s;
      int unnormalized = 0;
      words >> s.set >> s.binding >> s.element >> s.filter >> s.address >> s.border >> unnormalized;
      s.unnormalized = unnormalized != 0;
      if (s.border == "-") s.border.clear();
      capture.samplers.push_back(s);
    } else if (what == "note") {
      capture.notes.push_back(Rest(words));
    }
  }
  if (!capture.sequence) capture.spirv = ReadSpirv(dir / "shader.spv");
  for (RawStep& s : capture.steps) s.spirv = ReadSpirv(dir / ("pipeline" + std::to_string(s.pipeline) + ".spv"));
  return capture;
}

}  // namespace csbench::capture
