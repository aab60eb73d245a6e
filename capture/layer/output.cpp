// The files the layer writes for csbench-capture, which reads them back (capture/tool/raw.cpp):
// plain lines of words, one fact a line, beside the SPIR-V and the data as raw bytes.
//
//   DIR/summary.txt           pass 1: every compute pipeline dispatched (id, signature, entry
//                             point) and each (pipeline,
//   DIR/pipeline<ID>.spv      workgroup counts) with its count and where it first ran
//   DIR/capture<T>/info.txt   pass 2: one captured dispatch: pipeline, entry point, workgroup
//   DIR/capture<T>/shader.spv counts, specialization, push bytes, bindings, notes; each binding's
//   DIR/capture<T>/s<S>b<B>e<E>.before, .after   bytes before and after the dispatch
#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "capture/layer/layer.hpp"

namespace csbench::capture {

namespace {

void WriteBytes(const std::filesystem::path& path, const void* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

std::string Hex(const uint8_t* data, size_t size) {
  std::string text;
  for (size_t i = 0; i < size; ++i) text += fmt::format("{:02x}", data[i]);
  return size == 0 ? "-" : text;
}

}  // namespace

void WritePipeline(const Layer& layer, const Pipeline& pipeline) {
  if (pipeline.spirv == nullptr) return;
  std::error_code ignored;
  std::filesystem::create_directories(layer.config.dir, ignored);
  WriteBytes(layer.config.dir / fmt::format("pipeline{}.spv", pipeline.id), pipeline.spirv->data(),
             pipeline.spirv->size() * 4);
}

void WriteSummary(Layer& layer) {
  if (!layer.summary_dirty && std::filesystem::exists(layer.config.dir / "summary.txt")) return;
  std::error_code ignored;
  std::filesystem::create_directories(layer.config.dir, ignored);
  // Written whole to a temporary name, then renamed: a reader never sees half a summary.
  std::filesystem::path temporary = layer.config.dir / "summary.txt.part";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "dispatches " << layer.dispatches << "\n";
    for (const Pipeline* p : layer.pipeline_by_id)
      if (p->written)
        out << fmt::format("pipeline {} {:016x} {} {}\n", p->id, p->signature,
                           p->spirv != nullptr ? "spirv" : "nospirv", p->entry);
    for (const auto& [key, count] : layer.keys)
      out << fmt::format("key {} {} {} {} {} {} {} {} {}\n", key.pipeline, key.groups[0], key.groups[1], key.groups[2],
                         count.count, count.first.serial, count.first.ordinal, count.first.submission,
                         count.first.index);
    for (const auto& [pipeline, count] : layer.indirect) out << "indirect " << pipeline << " " << count << "\n";
    for (const auto& [pipeline, count] : layer.based) out << "base " << pipeline << " " << count << "\n";
    for (const auto& [index, found] : layer.nth) {
      const auto& [key, where] = found;
      out << fmt::format("nth {} {} {} {} {} {} {} {}\n", index, key.pipeline, key.groups[0], key.groups[1],
                         key.groups[2], where.serial, where.ordinal, where.submission);
    }
    for (const std::string& note : layer.notes) out << "note " << note << "\n";
  }
  std::filesystem::rename(temporary, layer.config.dir / "summary.txt", ignored);
  layer.summary_dirty = false;
}

void WriteCapture(const Layer& layer, const PendingCapture& capture) {
  std::filesystem::path dir = layer.config.dir / fmt::format("capture{}", capture.target);
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  const Pipeline* pipeline =
      capture.pipeline < layer.pipeline_by_id.size() ? layer.pipeline_by_id[capture.pipeline] : nullptr;
  std::ofstream out(dir / "info.txt.part", std::ios::trunc);
  out << "pipeline " << capture.pipeline << "\n";
  out << fmt::format("groups {} {} {}\n", capture.groups[0], capture.groups[1], capture.groups[2]);
  if (pipeline != nullptr) {
    out << "entry " << pipeline->entry << "\n";
    out << fmt::format("signature {:016x}\n", pipeline->signature);
    if (pipeline->spirv != nullptr)
      WriteBytes(dir / "shader.spv", pipeline->spirv->data(), pipeline->spirv->size() * 4);
    for (const VkSpecializationMapEntry& e : pipeline->spec_entries) {
      if (e.offset + e.size > pipeline->spec_data.size()) continue;
      out << "spec " << e.constantID << " " << Hex(pipeline->spec_data.data() + e.offset, e.size) << "\n";
    }
  }
  out << "push " << Hex(capture.push.data(), capture.push.size()) << "\n";
  for (const CapturedBinding& b : capture.bindings) {
    out << fmt::format("binding {} {} {} {} {}", b.set, b.binding, b.element, b.bytes,
                       capture.data ? "data" : "nodata");
    if (b.image != VK_NULL_HANDLE)
      out << fmt::format(" image {} {} {}", b.extent.width, b.extent.height, static_cast<int>(b.format));
    out << "\n";
    if (!capture.data || b.bytes == 0) continue;
    auto* bytes = static_cast<const uint8_t*>(b.mapped);
    std::string stem = fmt::format("s{}b{}e{}", b.set, b.binding, b.element);
    WriteBytes(dir / (stem + ".before"), bytes, b.bytes);
    WriteBytes(dir / (stem + ".after"), bytes + b.bytes, b.bytes);
  }
  for (const std::string& note : capture.notes) out << "note " << note << "\n";
  out.close();
  std::filesystem::rename(dir / "info.txt.part", dir / "info.txt", ignored);
}

}  // namespace csbench::capture
