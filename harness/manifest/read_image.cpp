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

void ReadSamplerKeys(const Reader& r, const toml::table& t, const std::string& where, SamplerKeys& keys) {
  keys.linear = ReadChoice(r, t, where, "filter", {"nearest", "linear"}, "nearest") == "linear";
  keys.address = ReadChoice(r, t, where, "address", {"clamp_to_edge", "clamp_to_border", "repeat", "mirrored_repeat"},
                            "clamp_to_edge");
  keys.border = ReadChoice(r, t, where, "border", {"transparent_black", "opaque_black", "opaque_white"},
                           "transparent_black");
  if (t.get("border") != nullptr && keys.address != "clamp_to_border") {
    r.Fail(Reader::LineOf(*t.get("border")), where + ".border",
           "a border colour is read only with address = \"clamp_to_border\"");
  }
  keys.unnormalized = r.Bool(t, where, "unnormalized");
  if (keys.unnormalized && (keys.address == "repeat" || keys.address == "mirrored_repeat")) {
    r.Fail(Reader::LineOf(*t.get("unnormalized")), where + ".unnormalized",
           "Vulkan's unnormalised coordinates take address \"clamp_to_edge\" or \"clamp_to_border\" only");
  }
}

void ReadSamplers(const Reader& r, const toml::array& samplers, Manifest& m) {
  for (const toml::node& node : samplers) {
    const toml::table& t = *node.as_table();
    ManifestSampler sampler;
    sampler.line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[sampler]]", {"name", "binding", "set", "filter", "address", "border", "unnormalized"});
    sampler.name = *r.String(t, "[[sampler]]", "name", true);
    const std::string where = fmt::format("[[sampler]] {}", Quoted(sampler.name));
    if (!IsVariableName(sampler.name)) r.Fail(sampler.line, where + ".name", "expected a name of letters, digits and '_'");
    const bool taken =
        std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == sampler.name; }) ||
        std::any_of(m.images.begin(), m.images.end(), [&](const auto& o) { return o.name == sampler.name; }) ||
        std::any_of(m.uniforms.begin(), m.uniforms.end(), [&](const auto& o) { return o.name == sampler.name; }) ||
        std::any_of(m.samplers.begin(), m.samplers.end(), [&](const auto& o) { return o.name == sampler.name; });
    if (taken) r.Fail(sampler.line, where + ".name", "two resources have this name");
    sampler.slot = ReadSlots(r, t, where, sampler.line).front();
    ReadSamplerKeys(r, t, where, sampler);
    m.samplers.push_back(std::move(sampler));
  }
}

namespace {

// A view's own keys: where it is bound, whether the kernel writes it, and which level of which image it shows. The rest
// are its image's.
void ReadView(const Reader &r, const toml::table &t, const toml::node &view, const std::string &where,
              ManifestImage &image) {
  for (const char *key : {"format", "width", "height", "depth", "layers", "levels", "usage", "filter", "address",
                          "border", "unnormalized", "init", "outside"}) {
    if (t.get(key) != nullptr) {
      r.Fail(Reader::LineOf(*t.get(key)), fmt::format("{}.{}", where, key),
             "a view (an [[image]] with `view`) takes its format, size, layers, usage, sampler, init and outside from "
             "its image: give them there");
    }
  }
  const toml::table *table = view.as_table();
  const std::string key = where + ".view";
  if (table == nullptr) r.Fail(Reader::LineOf(view), key, "expected a table: view = { image = \"name\", level = 1 }");
  r.OnlyKeys(*table, key, {"image", "level"});
  const toml::node *of = table->get("image");
  if (of == nullptr || !of->is_string()) {
    r.Fail(Reader::LineOf(view), key + ".image", "expected the name of the [[image]] this view shows (a string)");
  }
  image.view_name = of->as_string()->get();
  if (const toml::node *level = table->get("level")) {
    const std::optional<int64_t> value = level->value<int64_t>();
    if (!level->is_integer() || *value < 0 || *value >= kMaxImageLevels) {
      r.Fail(Reader::LineOf(*level), key + ".level",
             fmt::format("expected a mip level from 0 to {} of its image", kMaxImageLevels - 1));
    }
    image.view_level = static_cast<uint32_t>(*value);
  }
  image.output = r.Bool(t, where, "output");
}

// Each view's image found, and its format, size (its level's), layers, usage, sampler and init taken.
void ResolveViews(const Reader &r, Manifest &m) {
  for (ManifestImage &view : m.images) {
    if (view.view_name.empty()) continue;
    const std::string where = fmt::format("[[image]] {}.view.image", Quoted(view.name));
    auto of = std::find_if(m.images.begin(), m.images.end(), [&](const auto &o) { return o.name == view.view_name; });
    if (of == m.images.end()) {
      r.Fail(view.line, where, fmt::format("{}: no [[image]] has this name", Quoted(view.view_name)));
    }
    if (!of->view_name.empty()) {
      r.Fail(view.line, where,
             fmt::format("{} is itself a view: a view shows a level of an image of its own", Quoted(of->name)));
    }
    if (view.view_level >= of->levels) {
      r.Fail(view.line, fmt::format("[[image]] {}.view.level", Quoted(view.name)),
             fmt::format("{}, but image {} has {} mip level{} (levels = {}: levels 0 to {})", view.view_level,
                         Quoted(of->name), of->levels, of->levels == 1 ? "" : "s", of->levels, of->levels - 1));
    }
    view.view_of = static_cast<int>(of - m.images.begin());
    const ManifestImage &image = *of;
    const uint32_t level = view.view_level;
    auto halved = [level](const std::string &text) {
      return level == 0 ? text : fmt::format("max(1, floor(({}) / {}))", text, 1u << level);
    };
    view.format = image.format;
    view.width = halved(image.width);
    view.height = halved(image.height);
    view.depth = image.three_d ? halved(image.depth) : image.depth;
    view.three_d = image.three_d;
    view.layers = image.layers;
    view.arrayed = image.arrayed;
    view.sampled = image.sampled;
    view.linear = image.linear;
    view.address = image.address;
    view.border = image.border;
    view.unnormalized = image.unnormalized;
    view.init = image.init;
    view.value = image.value;
    view.init_expression = image.init_expression;
    // Its own init is never given: a view the kernel writes starts poisoned, as an output image does.
    view.init_given = false;
    view.outside_zero = image.outside_zero;
  }
}

}  // namespace

void ReadImages(const Reader& r, const toml::array& images, Manifest& m) {
  for (const toml::node& node : images) {
    const toml::table& t = *node.as_table();
    ManifestImage image;
    image.line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[image]]", {"name",    "binding", "set",          "element", "bindings", "format", "width",
                                "height",  "depth",   "layers",       "levels",  "view",     "usage",  "filter",
                                "address", "border",  "unnormalized", "init",    "output",   "outside", "expect"});
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
    if (const toml::node *view = t.get("view")) {
      ReadView(r, t, *view, where, image);
      ReadImageFiles(r, t, where, image);  // `expect` (a view takes no init)
      m.images.push_back(std::move(image));
      continue;
    }
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
    if (const toml::node *layers = t.get("layers")) {
      image.layers = *r.ExpressionText(layers, where + ".layers");
      image.arrayed = true;
      if (image.three_d) {
        r.Fail(Reader::LineOf(*layers), where + ".layers",
               "a 3-D image (depth other than \"1\") has no layers: Vulkan's arrayed images are 1-D and 2-D");
      }
    }
    if (const toml::node *levels = t.get("levels")) {
      const std::optional<int64_t> value = levels->value<int64_t>();
      if (!levels->is_integer() || *value < 1 || *value > kMaxImageLevels) {
        r.Fail(Reader::LineOf(*levels), where + ".levels",
               fmt::format("expected a whole number of mip levels from 1 to {} (level 0 is the image's own size, each "
                           "next one half as large)",
                           kMaxImageLevels));
      }
      image.levels = static_cast<uint32_t>(*value);
    }
    image.sampled = ReadChoice(r, t, where, "usage", {"storage", "sampled"}, "storage") == "sampled";
    for (const char* key : {"filter", "address", "border", "unnormalized"}) {
      if (!image.sampled && t.get(key) != nullptr) {
        r.Fail(Reader::LineOf(*t.get(key)), fmt::format("{}.{}", where, key),
               "a sampler key: it belongs to a sampled image (usage = \"sampled\")");
      }
    }
    for (const char* key : {"filter", "address", "border", "unnormalized"}) {
      if (image.sampler_key.empty() && t.get(key) != nullptr) {
        image.sampler_key = key;
        image.sampler_key_line = Reader::LineOf(*t.get(key));
      }
    }
    ReadSamplerKeys(r, t, where, image);
    if (image.unnormalized && (image.three_d || image.arrayed)) {
      r.Fail(Reader::LineOf(*t.get("unnormalized")), where + ".unnormalized",
             "Vulkan's unnormalised coordinates are for 1-D and 2-D images, not 3-D or arrayed ones");
    }
    image.output = r.Bool(t, where, "output");
    image.outside_zero = ReadChoice(r, t, where, "outside", {"clamp", "zero"}, "clamp") == "zero";
    // `init = { file = ... }` and `expect` (read_files.cpp); a file init is read there alone.
    const bool init_file = ReadImageFiles(r, t, where, image);
    if (const toml::node* init = t.get("init"); init != nullptr && !init_file) {
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
  ResolveViews(r, m);
}

}  // namespace manifest_detail

}  // namespace csbench
