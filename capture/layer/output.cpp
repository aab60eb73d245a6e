// The files the layer writes for csbench-capture, which reads them back (capture/tool/raw.cpp):
// plain lines of words, one fact a line, beside the SPIR-V and the data as raw bytes.
//
//   DIR/summary.txt           pass 1: every compute pipeline dispatched (id, signature, entry
//                             point) and each (pipeline,
//   DIR/pipeline<ID>.spv      workgroup counts) with its count and where it first ran
//   DIR/capture<T>/info.txt   pass 2: one captured dispatch: pipeline, entry point, workgroup
//   DIR/capture<T>/shader.spv counts, specialization, push bytes, bindings, notes; each binding's
//   DIR/capture<T>/s<S>b<B>e<E>.before, .after   bytes before and after the dispatch
//
// A sequence's info.txt says `sequence <N>`, lists each resource its dispatches bound once (by the
// slot it is declared at) and the notes, then each dispatch as `step` (pipeline, workgroup counts)
// followed by its entry point, signature, specialization, push bytes and `slots` (set, binding,
// element it bound, and which of the bindings listed it held there); each pipeline's SPIR-V is
// pipeline<ID>.spv beside it. An indirect dispatch (or step) has an `indirect` line: the offset of
// its counts in its buffer, the buffer's size, and whether they were read; `groups` (or the step's
// counts) are those read. `limits` is the device's maxComputeWorkGroupCount. A binding of a storage
// image adds `image` (width, height, VkFormat); of a combined image sampler also `sampled` (its
// sampler as a manifest's filter, address, border or "-", unnormalized 0 or 1), and has no .after
// file (the dispatch only reads it); of a separate sampled image (texture2D) `separate` instead, read alike but with no
// sampler. Each separate sampler (a descriptor of its own) is a `sampler` line: set, binding, element and its keys as
// `sampled` gives them.
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
      out << fmt::format("key {} {} {} {} {} {} {} {} {} {} {}\n", key.pipeline, key.groups[0], key.groups[1],
                         key.groups[2], count.count, count.first.serial, count.first.ordinal, count.first.submission,
                         count.first.index, count.indirect, count.first_indirect ? 1 : 0);
    for (const auto& [pipeline, count] : layer.indirect) out << "indirect " << pipeline << " " << count << "\n";
    for (const auto& [pipeline, count] : layer.unread) out << "unread " << pipeline << " " << count << "\n";
    out << fmt::format("limits {} {} {}\n", layer.max_groups[0], layer.max_groups[1], layer.max_groups[2]);
    for (const auto& [pipeline, count] : layer.based) out << "base " << pipeline << " " << count << "\n";
    for (const auto& [index, found] : layer.nth) {
      const auto& [key, where] = found;
      out << fmt::format("nth {} {} {} {} {} {} {} {}\n", index, key.pipeline, key.groups[0], key.groups[1],
                         key.groups[2], where.serial, where.ordinal, where.submission);
    }
    for (const auto& [pipelines, run] : layer.runs) {
      out << fmt::format("run {} {} {} {} {} {}", run.count, run.first.serial, run.first.submission, run.first.index,
                         run.dispatches, run.transfers ? 1 : 0);
      for (uint32_t p : pipelines) out << " " << static_cast<int64_t>(p == UINT32_MAX ? -1 : p);
      out << "\n";
    }
    for (const std::string& note : layer.notes) out << "note " << note << "\n";
  }
  std::filesystem::rename(temporary, layer.config.dir / "summary.txt", ignored);
  layer.summary_dirty = false;
}

namespace {

// A pipeline's entry point, signature and specialization as info.txt's lines; its SPIR-V to `spirv`.
void WritePipelineLines(const Layer& layer, uint32_t id, std::ostream& out, const std::filesystem::path& spirv) {
  const Pipeline* pipeline = id < layer.pipeline_by_id.size() ? layer.pipeline_by_id[id] : nullptr;
  if (pipeline == nullptr) return;
  out << "entry " << pipeline->entry << "\n";
  out << fmt::format("signature {:016x}\n", pipeline->signature);
  if (pipeline->spirv != nullptr && !std::filesystem::exists(spirv))
    WriteBytes(spirv, pipeline->spirv->data(), pipeline->spirv->size() * 4);
  for (const VkSpecializationMapEntry& e : pipeline->spec_entries) {
    if (e.offset + e.size > pipeline->spec_data.size()) continue;
    out << "spec " << e.constantID << " " << Hex(pipeline->spec_data.data() + e.offset, e.size) << "\n";
  }
}

// An indirect dispatch's line: where its counts were read (offset, the buffer's size) and
// whether they were.
void WriteIndirect(const CountsRead& counts, std::ostream& out) {
  out << fmt::format("indirect {} {} {}\n", counts.copy.source_offset, counts.buffer_size,
                     counts.copy.mapped != nullptr ? "read" : "unread");
}

}  // namespace

void WriteCapture(const Layer& layer, const PendingCapture& capture) {
  std::filesystem::path dir = layer.config.dir / fmt::format("capture{}", capture.target);
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  std::ofstream out(dir / "info.txt.part", std::ios::trunc);
  if (capture.sequence) {
    out << "sequence " << capture.steps.size() << "\n";
  } else {
    out << "pipeline " << capture.pipeline << "\n";
    out << fmt::format("groups {} {} {}\n", capture.groups[0], capture.groups[1], capture.groups[2]);
    WritePipelineLines(layer, capture.pipeline, out, dir / "shader.spv");
    out << "push " << Hex(capture.push.data(), capture.push.size()) << "\n";
    if (capture.indirect) WriteIndirect(capture.counts, out);
  }
  if (auto device = layer.devices.find(DispatchKeyOf(capture.device)); device != layer.devices.end())
    out << fmt::format("limits {} {} {}\n", device->second->max_groups[0], device->second->max_groups[1],
                       device->second->max_groups[2]);
  for (const CapturedBinding& b : capture.bindings) {
    out << fmt::format("binding {} {} {} {} {}", b.set, b.binding, b.element, b.bytes,
                       capture.data ? "data" : "nodata");
    if (b.image != VK_NULL_HANDLE)
      out << fmt::format(" image {} {} {}", b.extent.width, b.extent.height, static_cast<int>(b.format));
    if (b.separate)
      out << " separate";
    else if (b.sampled)
      out << fmt::format(" sampled {} {} {} {}", b.keys.filter, b.keys.address,
                         b.keys.border.empty() ? "-" : b.keys.border, b.keys.unnormalized ? 1 : 0);
    out << "\n";
    if (!capture.data || b.bytes == 0) continue;
    auto* bytes = static_cast<const uint8_t*>(b.mapped);
    std::string stem = fmt::format("s{}b{}e{}", b.set, b.binding, b.element);
    WriteBytes(dir / (stem + ".before"), bytes, b.bytes);
    if (!b.sampled) WriteBytes(dir / (stem + ".after"), bytes + b.bytes, b.bytes);
  }
  for (const PendingCapture::Sampler& s : capture.samplers)
    out << fmt::format("sampler {} {} {} {} {} {} {}\n", s.set, s.binding, s.element, s.keys.filter, s.keys.address,
                       s.keys.border.empty() ? "-" : s.keys.border, s.keys.unnormalized ? 1 : 0);
  for (const std::string& note : capture.notes) out << "note " << note << "\n";
  for (const SequenceStep& step : capture.steps) {
    out << fmt::format("step {} {} {} {}\n", step.pipeline, step.groups[0], step.groups[1], step.groups[2]);
    if (step.indirect) WriteIndirect(step.counts, out);
    WritePipelineLines(layer, step.pipeline, out, dir / fmt::format("pipeline{}.spv", step.pipeline));
    out << "push " << Hex(step.push.data(), step.push.size()) << "\n";
    out << "slots";
    for (const auto& [set, binding, element, held] : step.slots)
      out << fmt::format(" {} {} {} {}", set, binding, element, held);
    out << "\n";
  }
  out.close();
  std::filesystem::rename(dir / "info.txt.part", dir / "info.txt", ignored);
}

}  // namespace csbench::capture
