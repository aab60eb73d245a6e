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
      words >> row.pipeline >> row.groups[0] >> row.groups[1] >> row.groups[2] >> row.count >> row.first.serial >>
          row.first.ordinal >> row.first.submission >> row.first_index;
      summary.keys.push_back(row);
    } else if (what == "indirect" || what == "base") {
      uint32_t pipeline = 0;
      uint64_t count = 0;
      words >> pipeline >> count;
      (what == "indirect" ? summary.indirect : summary.based)[pipeline] = count;
    } else if (what == "nth") {
      uint64_t index = 0;
      KeyRow row;
      words >> index >> row.pipeline >> row.groups[0] >> row.groups[1] >> row.groups[2] >> row.first.serial >>
          row.first.ordinal >> row.first.submission;
      row.first_index = index;
      summary.nth[index] = row;
    } else if (what == "note") {
      summary.notes.push_back(Rest(words));
    }
  }
  return summary;
}

std::optional<RawCapture> ReadCapture(const std::filesystem::path& dir) {
  std::ifstream in(dir / "info.txt");
  if (!in) return std::nullopt;
  RawCapture capture;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what == "pipeline") {
      words >> capture.pipeline;
    } else if (what == "groups") {
      words >> capture.groups[0] >> capture.groups[1] >> capture.groups[2];
    } else if (what == "signature") {
      words >> capture.signature;
    } else if (what == "entry") {
      capture.entry = Rest(words);
    } else if (what == "spec") {
      uint32_t id = 0;
      std::string hex;
      words >> id >> hex;
      capture.spec[id] = FromHex(hex);
    } else if (what == "push") {
      std::string hex;
      words >> hex;
      capture.push = FromHex(hex);
    } else if (what == "binding") {
      RawBinding b;
      std::string data;
      std::string image;
      words >> b.set >> b.binding >> b.element >> b.bytes >> data >> image;
      b.data = data == "data";
      if (image == "image") {
        b.image = true;
        words >> b.width >> b.height >> b.format;
      }
      capture.bindings.push_back(b);
    } else if (what == "note") {
      capture.notes.push_back(Rest(words));
    }
  }
  std::vector<uint8_t> bytes = ReadFileBytes(dir / "shader.spv");
  capture.spirv.resize(bytes.size() / 4);
  std::memcpy(capture.spirv.data(), bytes.data(), capture.spirv.size() * 4);
  return capture;
}

}  // namespace csbench::capture
