// The case of one manifest variant at one point (harness/manifest/case.hpp says what it does): it
// makes its resources, has its Plan (plan.hpp) made, and executes it, for its check and for its
// timed loop. Its methods are in case.cpp (its life), case_device.cpp (its resources on the
// device) and case_check.cpp (its check).
#pragma once

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/base/half.hpp"
#include "harness/base/provenance.hpp"
#include "harness/manifest/case.hpp"
#include "harness/manifest/case_parts.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/manifest/plan.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench::manifest_detail {

class GpuCase : public Case {
 public:
  // `as_reference`: made to give the reference's outputs at another variant's point, where it runs at
  // that point's subgroup size whether it lists it or not.
  GpuCase(Suite& suite, const Manifest& m, const ManifestVariant& base, const Point& point, bool as_reference = false);

  // This variant's resources after one run of its sequence on resources of the check's own, each
  // buffer followed by a guard region of its own pattern (inside the bound range under
  // --guard=inside): written ones from the poison or their init, inputs from their values.
  // `failure` says which guard changed, or which input, where one did.
  struct GuardedResult {
    std::vector<Data> outputs;  // per resource (buffers, then images); empty for an input
    Comparison failure{.passed = true};
    // The run's resources on the device, as it left them (each buffer followed by its guard): what
    // a check on the device reads.
    std::vector<std::unique_ptr<Buffer>> buffers;
    std::vector<std::unique_ptr<Image>> images;
    // Whether `outputs` holds the written resources' contents (Downloaded): GuardedRun leaves them
    // on the device, where PassesOnDevice judges them.
    bool downloaded = false;
  };
  // `zeroed`: that buffer (an output without `init`) starts from zeros instead of the poison.
  GuardedResult GuardedRun(std::optional<size_t> zeroed = std::nullopt);

  // Why output buffer i's scalar k held the poison or a NaN after the check run (`seen`, what
  // Unwritten said): the sequence run again with the output starting from zeros tells a kernel
  // that never writes the element (it stays 0) from one that reads it first (an output it
  // accumulates into, which needs `init`) and from one that computes a NaN.
  std::string Explained(size_t i, size_t k, const std::string& seen);

  Comparison Check() override;

  // The written resources' contents read back into run.outputs, once.
  void Downloaded(GuardedResult& run) const;

  // Checked's whole verdict on the device (case_device_verdict.cpp), where it can give it: every
  // output's unwritten rule and its comparison with the reference variant's outputs (kept on the
  // device), and every check expression (CheckOnDevice), each found within half the host's
  // tolerances there. False where any of it needs the host (a scalar found off or near a
  // tolerance, a check or a type the device cannot take, a [require], a member's or header's
  // check): the host then reads the outputs back and judges all of it, as it always did. A
  // reference variant that passes keeps its outputs on the device for the others.
  bool PassesOnDevice(GuardedResult& run);

  // The reference variant's outputs at this point, kept from `run` under `key` (its written
  // resources' device copies, and their contents where read back).
  void KeepReference(GuardedResult& run, const std::string& key) const;

  Comparison Checked();

  void Measure(benchmark::State& state) override;

  // Whether some output has an `expect` file (case_files.cpp), which only the host compares.
  bool HasFileExpectations() const;

 private:
  std::string StateKey() const { return "manifest:" + manifest_->name; }
  std::string ReferenceKey() const;

  const ManifestVariant* ReferenceVariant() const;

  // The reference variant's outputs at this point: kept from its own check, or run now (when a
  // filter left its benchmark out, or it ran at another point last).
  ReferenceOutputs& ReferenceRun(const ManifestVariant& reference);
  // The kept reference outputs' contents, read back from their device copies where not yet.
  const std::vector<Data>& ReferenceHost(ReferenceOutputs& kept) const;

  // Whether output resource r passes the unwritten rule, and where `reference` is given the
  // comparison with its copy of r within half the tolerances, scanned on the device; false also
  // where the device cannot scan it. True unscanned for a float output that has no reference and
  // whose check expression runs on the device after it (that check finds what the scan would).
  bool ScanOnDevice(const GuardedResult& run, size_t r, const ReferenceOutputs* reference) const;

  size_t ResourceCount() const { return manifest_->buffers.size() + manifest_->images.size(); }
  const std::string& ResourceName(size_t r) const {
    const size_t n = manifest_->buffers.size();
    return r < n ? manifest_->buffers[r].name : manifest_->images[r - n].name;
  }
  size_t ResourceNamed(const std::string& name) const;

  void Record(Commands& c, uint32_t copy) const;

  // Resource r's range in the timed loop, with input images at copy `copy`.
  BufferRange TimedRange(size_t r, uint32_t copy) const;

  // A buffer's bytes: its header's (where it has one), then its elements'.
  uint64_t Bytes(size_t buffer) const {
    const ElementType& t = manifest_->buffers[buffer].type;
    return t.array_offset + values_.counts[buffer] * t.Bytes();
  }
  // Buffer i's contents from its init, its header's values first.
  Data MadeInput(size_t i, const DeviceValues& device) const {
    Data data = MakeInput(*manifest_, manifest_->buffers[i], values_.counts[i], point_, device);
    const std::vector<std::byte>& header = values_.headers[i];
    std::copy(header.begin(), header.end(), data.begin());
    return data;
  }
  // The image whose device image image k's texels are in (itself, or a view's image), and its level.
  size_t RootOf(size_t k) const {
    const int of = manifest_->images[k].view_of;
    return of >= 0 ? static_cast<size_t>(of) : k;
  }
  uint32_t LevelOf(size_t k) const { return manifest_->images[k].view_level; }
  // Image k's contents from its init (a view's of level 0: its image's, which it shows).
  Data MadeImage(size_t k, const DeviceValues& device) const {
    const ManifestImage& image = manifest_->images[k];
    const ManifestImage& made = image.view_of >= 0 && image.view_level == 0 ? manifest_->images[RootOf(k)] : image;
    return MakeImage(*manifest_, made, values_.image_sizes[k], point_, device);
  }
  // 'name', and for a view " (level L of 'image')": how messages name image k.
  std::string ImageLabel(size_t k) const;
  uint64_t ImageBytes(size_t k) const {
    const auto& s = values_.image_sizes[k];
    return uint64_t{s[0]} * s[1] * s[2] * manifest_->images[k].format.TexelBytes();
  }

  // A device image for image k at this point, with the usages its format allows (a swap may move it
  // to a slot of the other kind); unsupported where a slot it may take needs one the format lacks.
  std::unique_ptr<Image> MakeDeviceImage(size_t k) const;

  // The resources the sequence writes (outputs, and those a pass swaps): their device copies, the
  // contents they start from where they have an init (a swapped one always: random by default), and
  // the copies restore puts back.
  void MakeWritten();

  // The inputs of this point's sizes: the kept ones, or made now (and kept in their place).
  std::shared_ptr<Inputs> SharedInputs();

  // Resource r's contents from its init (MadeInput, MadeImage), kept in the manifest's MadeData by
  // MadeKey(r): what they depend on (the resource, its sizes and header values, and for an init
  // expression the point's domain, and its workgroup and subgroup size only where it reads them).
  std::shared_ptr<const Data> Made(size_t r, const DeviceValues& device) const;
  std::string MadeKey(size_t r) const;

  // Resource r's contents as made: an input's (Host), a written one's starting ones where it has an
  // init (Initial); kNoData where it has none.
  const Data& Host(size_t r) const { return inputs_->host[r] ? *inputs_->host[r] : kNoData; }
  const Data& Initial(size_t r) const { return initial_[r] ? *initial_[r] : kNoData; }

  // A check's view of resource r: written ones as `got` holds them, inputs as made.
  Reading ReadingOf(const std::vector<Data>& got, size_t r) const {
    return ReadingOfData(written_[r] ? got[r] : Host(r), r);
  }
  Reading ReadingOfData(const Data& data, size_t r) const;

  // A check input's contents as the check reads them by name: an input's, or an output's initial ones.
  Reading InputReading(const CheckInput& in) const {
    const size_t r = in.image ? manifest_->buffers.size() + in.buffer : in.buffer;
    return ReadingOfData(written_[r] ? Initial(r) : Host(r), r);
  }

  // The values of `text` at the scalars of resource `out` (buffers, then images): where `field` is -1
  // at each of its `count` scalars (i the scalar's index, c its component, x, y and z an image's
  // texel), the inputs read at the same index; else at each component of member `field` of its
  // `count` elements (i the element, c the component), its scalars' indices into `scalars`. A
  // struct's member, and any input in a member's check, is read at the same element and component (a
  // scalar at its element whatever the component; NaN where it has no such component). Every
  // resource is also a function of its index or texel, `stat` variables its sums and extremes.
  // Why a check's expression has no value at some index (a read outside a buffer, a value not
  // finite): the benchmark fails with it.
  struct CheckFailure {
    std::string message;
  };

  // How a check is named in messages: "[check] out", the variant's own "[[variant]] 'v'.check.out".
  std::string CheckLabel(const std::string& key) const;

  // The index `k` of resource r's scalars (as Expected counts them: a member's p), for messages.
  std::string PointText(size_t r, int field, size_t k) const;

  // `points`: only at these scalars (ascending), the values in their order (where `field` is -1).
  std::vector<double> Expected(const std::vector<Data>& got, size_t out_index, int field, size_t count,
                               const std::string& text, std::vector<size_t>* scalars,
                               const std::string& label = "", const std::vector<size_t>* points = nullptr) const;

  // Buffer i's scalars (where `field` is -1) or member `field`'s (of `count` elements) against the
  // check expression `text` (under key `key`), as CompareScalars compares them: each chunk of values
  // compared as soon as it is evaluated, on the thread that evaluated it.
  // With `run` (a whole buffer, field -1), the device computes the values first (CheckOnDevice) and
  // the host evaluates only the scalars it finds off, where it can.
  Comparison CompareWithCheck(const std::vector<Data>& got, size_t i, int field, size_t count, const std::string& text,
                              const std::string& key, const GuardedResult* run = nullptr) const;

  // A check on the device (case_device_check.cpp): output resource `out`'s scalars (buffers, then
  // images) against `text`, computed in float64 by a compute shader made from the text over the
  // run's own resources, which lists the scalars whose value it finds farther than half the
  // tolerances from the output (an integer: not equal), not finite, or read outside a resource.
  // Only those can fail the host's check, which then evaluates them alone. `refused` says why the
  // check cannot run there (--checks=host, the device, the text, a resource's type); `overflow`:
  // more than kMostSuspects were listed, and the host checks every scalar.
  struct DeviceCheck {
    std::string refused;
    bool overflow = false;
    std::vector<size_t> suspects;  // ascending
  };
  static constexpr size_t kMostSuspects = 4096;
  DeviceCheck CheckOnDevice(const GuardedResult& run, const std::vector<Data>& got, size_t out,
                            const std::string& text) const;
  DeviceCheck DeviceSuspects(const GuardedResult& run, const std::vector<Data>& got, size_t out,
                             const std::string& text) const;
  // The numbers a check's shader reads from a uniform buffer (csb_k), in order. A uniform buffer,
  // not a storage one: lavapipe loads a storage buffer's word lane by lane, with bounds checks,
  // at every read, and the sizes read at every texel's read cost a check more than its
  // expression; a uniform's constant index is one load for all lanes.
  struct CheckNumbers {
    std::vector<double> values;
    std::string Add(double value);    // a double
    std::string Whole(double value);  // a uint
    // The buffer's declaration at `binding`, once every number is added: doubles in pairs (std140
    // gives an array of dvec2 the stride of two doubles, so the values are read as uploaded).
    std::string Declaration(uint32_t binding) const;
  };
  // The most numbers one check may take: Vulkan's least maxUniformBufferRange (16384 bytes).
  static constexpr size_t kMostCheckNumbers = 2048;
  // The device check's names for resource r (a buffer or an image of a plain type: float, or an
  // integer of 4 bytes a scalar; an image of a float or integer format): its binding's
  // declaration, its scalar-reading function and its read function; false where it has none.
  // `tag` names its GLSL (csb_res<tag>, csb_scalar<tag>, csb_read<tag>); `buffers` and `images`
  // are a run's device resources (GuardedResult's, or the kept reference's).
  bool DeviceResource(const std::vector<std::unique_ptr<Buffer>>& buffers,
                      const std::vector<std::unique_ptr<Image>>& images, size_t r, uint32_t binding,
                      std::string& glsl, CheckNumbers& numbers, const std::string& tag) const;
  // How a check's shader walks the `count` scalars of output r, one invocation each: `main`, the
  // first lines of its main(), which name the scalar's index g, its element, component and
  // coordinate (uvec3) and return past the last, and the groups it is dispatched in. An image's
  // walk follows its texels (x and channel across, a row of groups per y and z), so no
  // invocation divides by a size read from the numbers: on a CPU device such a division is a
  // loop of scalar divisions, and cost the check more than its expression. Elsewhere (a buffer,
  // an image too large for that shape) the walk is linear. `got`: how the shader reads output r's
  // scalar there, through the functions of its resource tagged `tag` (DeviceResource).
  struct CheckWalk {
    std::string main;
    std::array<uint32_t, 3> groups{1, 1, 1};
    bool texels = false;
    std::string Got(const std::string& tag) const;
  };
  CheckWalk WalkOf(size_t r, size_t count, uint32_t components, std::array<uint32_t, 3> size,
                   CheckNumbers& numbers) const;
  // Runs a check's compute shader `source` in `groups` of kCheckGroup invocations: `ranges`
  // (storage buffers and images) at bindings 0 to N-1, then the numbers (a uniform buffer) at N
  // and `result`, zeroed first, at N+1.
  static constexpr uint32_t kCheckGroup = 256;
  void RunCheckShader(const std::string& source, const std::string& label, std::vector<BufferRange> ranges,
                      const CheckNumbers& numbers, Buffer& result, std::array<uint32_t, 3> groups) const;

  // Expected's values, handed chunk by chunk to `consume` on the threads that evaluate them.
  void ExpectedChunks(const std::vector<Data>& got, size_t out_index, int field, size_t count,
                      const std::string& text, std::vector<size_t>* scalars,
                      const Expression::Consume& consume) const;

  // Expected's work, but for how the values are taken: `evaluate(expression, n, fill)`.
  using Evaluation = std::function<void(Expression&, size_t, const Expression::Fill&)>;
  void EvaluateCheck(const std::vector<Data>& got, size_t out_index, int field, size_t count, const std::string& text,
                     std::vector<size_t>* scalars, const std::string& label, const Evaluation& evaluate,
                     const std::vector<size_t>* points = nullptr) const;

  // A header's scalar `f` in a buffer's bytes (NaN where the bytes are too few).
  static double HeaderValue(const BlockField& f, const Data& data);

  // Output buffer i's header member `f` against the check expression `text` (under key `key`),
  // evaluated once: an integer exactly, a float within the variant's tolerances.
  Comparison CompareHeader(const std::vector<Data>& got, size_t i, const BlockField& f, const std::string& text,
                           const std::string& key) const;

  // The sum (in double), least or greatest of `reading`'s scalars.
  static double Stat(const Reading& reading, int kind);

  // [require] name = text: non-zero at each scalar of the resource as the sequence left it.
  Comparison Required(const std::vector<Data>& got, const std::string& name, const std::string& text) const;

  // "texel (x, y) channel c" of image k's scalar `k_scalar`.
  std::string TexelText(size_t k, size_t scalar) const;

  // The first channel of image k's output still holding the poison (a float one, or one not finite).
  Comparison UnwrittenImage(size_t k, const Data& got) const;

  // Image k's channels against `want` (normalised values): floats within the tolerances, integer
  // formats exactly.
  // `only`: want[j] is for scalar (*only)[j]. `tolerances`: relative and absolute (none: the variant's).
  Comparison CompareImage(size_t k, const Reading& got, const std::vector<double>& want, const std::string& against,
                          const std::vector<size_t>* only = nullptr,
                          std::optional<std::array<double, 2>> tolerances = std::nullopt) const;
  // The same over `n` values, want(j) the value wanted for the j-th: read where compared, not kept.
  Comparison CompareImageWith(size_t k, const Reading& got, size_t n, const std::function<double(size_t)>& want,
                              const std::string& against, const std::vector<size_t>* only = nullptr,
                              std::optional<std::array<double, 2>> tolerances = std::nullopt) const;

  // Each output with an `expect` file against the file's contents, as the reference variant's outputs are
  // compared, within the file's tolerances (case_files.cpp).
  Comparison FileExpectations(const std::vector<Data>& got) const;

  // The checks computed on the device and on the host (Checked counts them), for the JSON entry.
  mutable int checks_on_device_ = 0, checks_on_host_ = 0;
  double checked_seconds_ = 0;  // the last GuardedRun's iteration, by the device's clock


  Suite* suite_;
  Context* context_;
  const Manifest* manifest_;
  const ManifestVariant* variant_;
  Point point_;
  PointValues values_;
  std::set<std::string> swapped_;
  // Per resource (buffers, then images): written by the sequence (an output, or swapped). An image and its views share
  // one device image: all of them are written where one is.
  std::vector<bool> written_ = [this] {
    std::vector<bool> written;
    for (const ManifestBuffer& b : manifest_->buffers) written.push_back(b.output || swapped_.contains(b.name));
    const std::vector<ManifestImage>& images = manifest_->images;
    for (size_t k = 0; k < images.size(); ++k) {
      bool any = false;
      for (size_t o = 0; o < images.size(); ++o) {
        if (RootOf(o) == RootOf(k)) any = any || images[o].output || swapped_.contains(images[o].name);
      }
      written.push_back(any);
    }
    return written;
  }();
  std::shared_ptr<Inputs> inputs_;
  std::unique_ptr<Plan> plan_;  // what the case runs (plan.hpp)
  std::vector<std::unique_ptr<Buffer>> outputs_;  // per buffer written
  std::vector<std::unique_ptr<Image>> images_;    // per image written
  std::vector<std::shared_ptr<const Data>> initial_ =
      std::vector<std::shared_ptr<const Data>>(manifest_->buffers.size() + manifest_->images.size());
  std::vector<std::unique_ptr<Buffer>> restore_;  // per output restored before each timed dispatch
  // The timed loop's descriptor sets: per copy of the input images.
  std::vector<Plan::Sets> timed_;
};

}  // namespace csbench::manifest_detail
