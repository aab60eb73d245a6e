// Stage 1, read: [[image]] tables.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

bool ImageCoordinateName(const std::string& name) { return name == "x" || name == "y" || name == "z" || name == "c"; }

// One of `choices` under `key` of `t` (or `fallback` where it is not given).
std::string ReadChoice(const Reader& r, const toml::table& t, const std::string& where, std::string_view key,
                       std::initializer_list<std::string_view> choices, std::string_view fallback) {
  const std::optional<std::string> given = r.String(t, where, key, false);
  if (!given) return std::string(fallback);
  if (std::find(choices.begin(), choices.end(), *given) == choices.end()) {
    std::string list;
    for (std::string_view c : choices) list += (list.empty() ? "" : ", ") + Quoted(c);
    r.Fail(Reader::LineOf(*t.get(key)), fmt::format("{}.{}", where, key),
           fmt::format("{}: expected one of {}", Quoted(*given), list));
  }
  return *given;
}

void ReadImages(const Reader& r, const toml::array& images, Manifest& m) {
  for (const toml::node& node : images) {
    const toml::table& t = *node.as_table();
    ManifestImage image;
    image.line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[image]]",
               {"name", "binding", "set", "element", "bindings", "format", "width", "height", "depth", "usage", "filter",
                "address", "border", "unnormalized", "init", "output", "outside"});
    image.name = *r.String(t, "[[image]]", "name", true);
    const std::string where = fmt::format("[[image]] {}", Quoted(image.name));
    if (!IsVariableName(image.name) || kReservedNames.contains(image.name)) {
      r.Fail(image.line, where + ".name",
             "expected a name of letters, digits and '_' that starts with a letter and is not W, H, WG_X, WG_Y, "
             "SUBGROUP_SIZE, VENDOR_ID, DEVICE_ID or i (check expressions use it)");
    }
    const bool taken = std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == image.name; }) ||
                       std::any_of(m.images.begin(), m.images.end(), [&](const auto& o) { return o.name == image.name; });
    if (taken) r.Fail(image.line, where + ".name", "two resources have this name");
    image.slots = ReadSlots(r, t, where, image.line);
    const std::string format = *r.String(t, where, "format", true);
    const ImageFormat* found = FindImageFormat(format);
    if (found == nullptr) {
      std::string list;
      for (const ImageFormat& f : ImageFormats()) list += (list.empty() ? "" : " ") + f.glsl;
      r.Fail(Reader::LineOf(*t.get("format")), where + ".format",
             fmt::format("{}: expected a GLSL image format qualifier: {}", Quoted(format), list));
    }
    image.format = *found;
    image.width = r.ExpressionText(t.get("width"), where + ".width").value_or("W");
    image.height = r.ExpressionText(t.get("height"), where + ".height").value_or("H");
    image.depth = r.ExpressionText(t.get("depth"), where + ".depth").value_or("1");
    image.three_d = image.depth != "1";
    image.sampled = ReadChoice(r, t, where, "usage", {"storage", "sampled"}, "storage") == "sampled";
    for (const char* key : {"filter", "address", "border", "unnormalized"}) {
      if (!image.sampled && t.get(key) != nullptr) {
        r.Fail(Reader::LineOf(*t.get(key)), fmt::format("{}.{}", where, key),
               "a sampler key: it belongs to a sampled image (usage = \"sampled\")");
      }
    }
    image.linear = ReadChoice(r, t, where, "filter", {"nearest", "linear"}, "nearest") == "linear";
    image.address = ReadChoice(r, t, where, "address",
                               {"clamp_to_edge", "clamp_to_border", "repeat", "mirrored_repeat"}, "clamp_to_edge");
    image.border = ReadChoice(r, t, where, "border", {"transparent_black", "opaque_black", "opaque_white"},
                              "transparent_black");
    if (t.get("border") != nullptr && image.address != "clamp_to_border") {
      r.Fail(Reader::LineOf(*t.get("border")), where + ".border", "a border colour is read only with address = \"clamp_to_border\"");
    }
    image.unnormalized = r.Bool(t, where, "unnormalized");
    if (image.unnormalized && (image.address == "repeat" || image.address == "mirrored_repeat")) {
      r.Fail(Reader::LineOf(*t.get("unnormalized")), where + ".unnormalized",
             "Vulkan's unnormalised coordinates take address \"clamp_to_edge\" or \"clamp_to_border\" only");
    }
    if (image.unnormalized && image.three_d) {
      r.Fail(Reader::LineOf(*t.get("unnormalized")), where + ".unnormalized", "Vulkan's unnormalised coordinates are for 1-D and 2-D images");
    }
    image.output = r.Bool(t, where, "output");
    image.outside_zero = ReadChoice(r, t, where, "outside", {"clamp", "zero"}, "clamp") == "zero";
    if (const toml::node* init = t.get("init")) {
      image.init_given = true;
      if (init->is_string() && init->as_string()->get() != "random" && init->as_string()->get() != "zero" &&
          init->as_string()->get() != "iota") {
        image.init = ManifestBuffer::Init::kExpression;
        image.init_expression = r.Expanded(init->as_string()->get(), Reader::LineOf(*init), where + ".init");
        r.CheckExpression(InitExpressionText(image.init_expression), ImageInitVariables(), Reader::LineOf(*init),
                          where + ".init");
      } else {
        const ManifestBuffer::MemberInit read = ReadInit(r, *init, where + ".init", nullptr);
        image.init = read.init;
        image.value = read.value;
        if (read.init == ManifestBuffer::Init::kValue) {
          const ImageFormat& f = image.format;
          const double least = f.kind == ImageFormat::Kind::kSnorm ? -1 : f.kind == ImageFormat::Kind::kInt ? -std::ldexp(1.0, 8 * f.channel_bytes - 1) : 0;
          const double most = f.kind == ImageFormat::Kind::kUnorm || f.kind == ImageFormat::Kind::kSnorm ? 1
                              : f.kind == ImageFormat::Kind::kInt  ? std::ldexp(1.0, 8 * f.channel_bytes - 1) - 1
                              : f.kind == ImageFormat::Kind::kUint ? std::ldexp(1.0, 8 * f.channel_bytes) - 1
                              : f.channel_bytes == 2 ? 65504 : 3.4028234663852886e38;
          if (read.value < least || read.value > most || (f.Integer() && read.value != std::floor(read.value))) {
            r.Fail(read.line, where + ".init",
                   fmt::format("{}: a channel of an {} texel takes {} from {} to {}", read.value, f.glsl,
                               f.Integer() ? "whole numbers" : "values", least, most));
          }
        }
      }
    }
    m.images.push_back(std::move(image));
  }
}

}  // namespace manifest_detail

}  // namespace csbench
