// Stage 2, resolve: an image's slot against the shader's declaration there, and the [[sampler]]s against the shader's
// samplers.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "harness/manifest/manifest.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench::manifest_detail {

std::string SlotText(SlotPlace slot) {
  const std::string element = slot.element != 0 ? fmt::format(" element {}", slot.element) : "";
  return slot.set == 0 ? fmt::format("binding {}{}", slot.binding, element)
                       : fmt::format("set {} binding {}{}", slot.set, slot.binding, element);
}

std::string ArrayText(const Resource& d) {
  return d.count == 1   ? ""
         : d.count == 0 ? ", a runtime-sized array of descriptors"
                        : fmt::format(", an array of {} descriptors", d.count);
}

void CheckImageAt(const Manifest& m, ManifestVariant& v, ManifestImage& image, const Resource& d,
                  const std::string& key) {
  const bool storage = d.kind == ResourceKind::kStorageImage, separate = d.kind == ResourceKind::kSampledImage;
  const bool sampled = d.kind == ResourceKind::kCombinedImageSampler || separate;
  if (d.kind == ResourceKind::kSampler) {
    throw ManifestError{fmt::format("{}.binding: the shader's {} is a sampler, not an image: give it a [[sampler]]", key,
                                    Described(d))};
  }
  if (!storage && !sampled) {
    throw ManifestError{
        fmt::format("{}.binding: the shader's {}{} is neither one storage image (image2D), one combined image sampler "
                    "(sampler2D) nor one separate sampled image (texture2D), nor an array of the first two",
                    key, Described(d), ArrayText(d))};
  }
  if (sampled != image.sampled) {
    throw ManifestError{fmt::format("{}.usage: \"{}\", but the shader declares {} ({})", key,
                                    image.sampled ? "sampled" : "storage", Described(d),
                                    sampled ? "give usage = \"sampled\"" : "give usage = \"storage\"")};
  }
  if (separate && !image.sampler_key.empty()) {
    throw ManifestError{fmt::format(
        "{}.{}: the shader's {} is a separate sampled image (texture2D), which has no sampler of its own: put the "
        "sampler's keys in the [[sampler]] the shader samples it with",
        key, image.sampler_key, Described(d))};
  }
  if (sampled && image.sampled_kind_known && image.separate != separate) {
    throw ManifestError{fmt::format("{}.binding: the shader's {} is a {}, but another slot of the image is a {}: an "
                                    "[[image]] is either a combined image sampler or a separate sampled image",
                                    key, Described(d), separate ? "separate sampled image" : "combined image sampler",
                                    separate ? "combined image sampler" : "separate sampled image")};
  }
  if (sampled) {
    image.separate = separate;
    image.sampled_kind_known = true;
  }
  const std::string dim = image.three_d ? "3D" : "2D";
  if (d.image_dim == "2D" && !d.multisampled && d.arrayed != image.arrayed) {
    // A view's layers are its image's.
    const std::string named = image.view_of < 0 ? Quoted(image.name)
                                                : fmt::format("{} (a view of {})", Quoted(image.name),
                                                              Quoted(m.images[image.view_of].name));
    throw ManifestError{
        d.arrayed ? fmt::format("{}.layers: the shader's {} is an arrayed image ({}2DArray), and the manifest's "
                                 "{} has no layers: give layers = \"...\" (an expression of the sizes)",
                                 key, Described(d), sampled ? "sampler" : "image", named)
                   : fmt::format("{}.layers: the manifest's {} has layers, but the shader's {} is not arrayed "
                                 "(declare it {}2DArray, or give the image no layers)",
                                 key, named, Described(d), sampled ? "sampler" : "image")};
  }
  if (d.image_dim != dim || d.multisampled) {
    throw ManifestError{fmt::format(
        "{}.depth: the shader's {} is a {}{}{} image, and the manifest's is {} (depth \"1\" makes a 2-D image, "
        "another depth a 3-D one; layers an arrayed 2-D one; multisampled images are not supported)",
        key, Described(d), d.image_dim, d.arrayed ? " arrayed" : "", d.multisampled ? " multisampled" : "",
        dim)};
  }
  const ScalarKind want = image.format.kind == ImageFormat::Kind::kUint  ? ScalarKind::kUint
                          : image.format.kind == ImageFormat::Kind::kInt ? ScalarKind::kInt
                                                                         : ScalarKind::kFloat;
  if (d.image_sampled.kind != want) {
    throw ManifestError{fmt::format("{}.format: {} texels read as {}, but the shader's {} reads {} (a {}image, "
                                    "{}sampler)",
                                    key, image.format.glsl,
                                    want == ScalarKind::kFloat ? "floats" : want == ScalarKind::kUint ? "uints" : "ints",
                                    Described(d),
                                    d.image_sampled.kind == ScalarKind::kFloat  ? "floats"
                                    : d.image_sampled.kind == ScalarKind::kUint ? "uints"
                                                                                 : "ints",
                                    want == ScalarKind::kFloat ? "" : want == ScalarKind::kUint ? "u" : "i",
                                    want == ScalarKind::kFloat ? "" : want == ScalarKind::kUint ? "u" : "i")};
  }
  if (storage && d.image_format != "unknown" && d.image_format != image.format.glsl) {
    throw ManifestError{fmt::format("{}.format: {}, but the shader declares {} with the format {}", key,
                                    image.format.glsl, Described(d), d.image_format)};
  }
  if (storage && d.image_format == "unknown") {
    if (!d.writeonly) v.storage_read_without_format = true;
    if (!d.readonly) v.storage_write_without_format = true;
  }
}

void CheckSamplers(const Manifest& m, const ManifestVariant& v, const ShaderInterface& shader) {
  // The images this shader declares separate (texture2D): the images its samplers may read.
  std::vector<const ManifestImage*> separate;
  for (const ManifestImage& image : m.images) {
    for (const SlotPlace& slot : image.slots) {
      if (std::any_of(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
            return d.set == slot.set && d.binding == slot.binding && d.kind == ResourceKind::kSampledImage;
          })) {
        separate.push_back(&image);
        break;
      }
    }
  }
  const bool integer = std::any_of(separate.begin(), separate.end(), [](auto* i) { return i->format.Integer(); });
  for (const ManifestSampler& s : m.samplers) {
    const std::string key = fmt::format("{}:{}: [[sampler]] {} ({})", m.path.string(), s.line, Quoted(s.name),
                                        v.is_pass ? v.name : "variant " + Quoted(v.name));
    auto d = std::find_if(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
      return d.set == s.slot.set && d.binding == s.slot.binding;
    });
    if (d == shader.resources.end()) {
      if (v.is_pass) continue;
      throw ManifestError{fmt::format("{}.binding: the shader {} declares no sampler at {}", key,
                                      v.source.filename().string(), SlotText(s.slot))};
    }
    if (d->kind != ResourceKind::kSampler) {
      throw ManifestError{fmt::format("{}.binding: the shader's {} is not a sampler (`uniform sampler s;`)", key,
                                      Described(*d))};
    }
    // Vulkan's unnormalised coordinates are for 1-D and 2-D images of one level: the shader may pair the sampler with
    // any of its separate images.
    for (const ManifestImage* image : separate) {
      if (s.unnormalized && (image->three_d || image->arrayed)) {
        throw ManifestError{fmt::format("{}.unnormalized: the shader may sample the separate image {} with it, which "
                                        "is {}: Vulkan's unnormalised coordinates are for 1-D and 2-D images only",
                                        key, Quoted(image->name), image->three_d ? "3-D" : "arrayed")};
      }
      // A border colour is a float's or an integer's: the separate images it may read must agree.
      if (s.address == "clamp_to_border" && image->format.Integer() != integer) {
        throw ManifestError{fmt::format("{}.address: \"clamp_to_border\" with separate images of both integer and "
                                        "float formats (as {}): a sampler's border colour is one or the other",
                                        key, Quoted(image->name))};
      }
    }
  }
}

bool SeparateImagesInteger(const Manifest& m) {
  return std::any_of(m.images.begin(), m.images.end(),
                     [](const ManifestImage& image) { return image.separate && image.format.Integer(); });
}

}  // namespace csbench::manifest_detail
