// The Gray-Scott family: the reaction-diffusion simulation of the GPU course's "Shared memory"
// chapter, one dispatch per step, in three modes (compute only; with a download of V every
// `image` steps; with the host also summing each image).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/base/check.hpp"
#include "harness/base/naming.hpp"
#include "harness/family/family.hpp"
#include "harness/family/suite.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/kernel.hpp"
#include "kernels/grayscott/reference.hpp"

namespace csbench::grayscott {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  Extent cells{1, 1};   // output cells per work-item
  uint32_t border = 0;  // work-items along each workgroup edge that only load (shared memory: 1)
  // Steps one dispatch advances at most (fused variants; the last pass of a run may do fewer).
  // Above 1, a workgroup's tile is workgroup x cells, of which it writes all but a ring of
  // `steps` cells, the halo that the overlapping neighbour tiles write.
  uint32_t steps = 1;
  // A fused variant whose workgroup rows are subgroups (fused_shuffle.comp): its workgroup's x
  // must be the device's subgroup size, and only each work-item's first and last rows go through
  // shared memory.
  bool subgroup_rows = false;
  std::vector<Extent> workgroups;
  // The family's test (Descriptor() fills these): the variant's own test domains, where it has
  // them, and workgroups it checks besides the table's.
  std::vector<Extent> test_domains;
  std::vector<Extent> test_workgroups;
  // The variant's benchmarks in a CPU device's default set (harness/family/family.hpp), and those
  // a GPU's leaves out (the tuning space's points the table did not have).
  std::vector<Pick> cpu_default;
  std::vector<Pick> gpu_leaves_out;
};

const std::vector<Variant>& Variants();
// The table's variant `name`; Error where the table has none.
const Variant& VariantNamed(std::string_view name);

// A domain and its schedule: `total` steps, an image every `image` steps. All are in the names.
struct Schedule {
  Extent domain;
  uint32_t total = 0;
  uint32_t image = 0;
};

const std::vector<Schedule>& Schedules();

enum class Mode { kCompute, kComputeDownload, kComputeDownloadSum };
// The modes in the order a run takes those of one simulation: the host-clocked ones first, so that
// while the compute mode (timed by the device) measures, the next simulation's first case is made
// ahead (harness/measure/measure.hpp); nothing is made beside a host-clocked loop. The names are the same
// in any order.
inline constexpr Mode kModes[] = {Mode::kComputeDownload, Mode::kComputeDownloadSum, Mode::kCompute};
std::string_view ToString(Mode mode);

// The seed of every benchmark's initial state (the CUDA peer starts from the same one).
inline constexpr uint64_t kSeed = 0x6772617973636f74;  // "grayscot"

// Compulsory traffic of one cell and step: U and V read once, U and V written once.
inline constexpr double kBytesPerCellStep = 16;

// Floating-point operations of one cell and step, the fewest the update needs: the Laplacian
// grouped by rows (wc (h_above + h_below) + we ((c_above + c_below) + h_mid) - 3 c, h the sum of
// a row's left and right neighbours, computed once per row) is 9 per plane, the reaction and the
// step 15, an FMA counting 2. A kernel in the reference's order (eight weighted differences per
// plane) does more, and a fused kernel recomputes its halo: every variant's count is a lower bound.
inline constexpr double kFlopPerCellStep = 33;

// The check every variant passes before it is timed: a small odd-sized domain, seeded whole so
// the boundary matters from the first step, against the plain loop after a few dozen steps. A
// prime step count: a variant of k steps per dispatch (2 <= k <= 20) runs at least two full passes
// and a shorter last one.
inline constexpr Extent kCheckDomain{67, 45};
inline constexpr uint32_t kCheckSteps = 41;
// Relative error allowed, over U and V, with |reference| floored at kToleranceFloor (V is near 0
// in much of the domain, where a relative error means nothing; U and V are of order 1). Both sides
// compute in float in the same order, and lavapipe matches the plain loop bit for bit. A GPU
// compiler may fuse multiply-adds: the plain loop built with -ffp-contract=fast moves the check's
// result by 3.3e-7 at most, so the bound leaves a factor of 30.
inline constexpr double kTolerance = 1e-5;
inline constexpr double kToleranceFloor = 1e-2;

// Host-visible slots for downloaded images: the device runs up to this many images ahead of the
// host, so it keeps computing while the host handles the oldest one.
inline constexpr uint32_t kSlots = 3;

// Throws Error when `workgroup` does not suit the variant: a shared-memory variant needs three
// work-items per side (its one-cell border takes two), as the course's check says; a fused variant
// a tile of more than 2 x steps cells per side (its halo takes 2 x steps).
void RequireWorkgroup(const Variant& variant, Extent workgroup);

// Shared memory of one workgroup of a fused variant (its tile's (U, V) buffers, or for subgroup
// rows two buffers of each work-item's first and last rows); 0 for the others, whose few
// kilobytes fit every device.
uint32_t SharedBytes(const Variant& variant, Extent workgroup);

// Dispatches for `steps` steps: one per step, or ceil(steps / variant.steps) for a fused variant.
uint32_t Passes(const Variant& variant, uint32_t steps);

// One variant at one workgroup size on one domain: its kernel, the two states it steps between
// and the initial state, on the device.
class Simulation {
 public:
  // Host-visible buffers of at least the given bytes for the download modes' slots; without one,
  // the simulation allocates its own.
  using HostSlots = std::function<std::shared_ptr<Buffer>(uint64_t bytes)>;
  Simulation(Context& context, const Variant& variant, Extent workgroup, const State& initial,
             HostSlots host_slots = {});
  ~Simulation();

  // Restores the initial state. `poison`: the other state's domain cells become NaN, so a cell
  // a step does not write cannot pass a check.
  void Reset(bool poison = false);
  // Runs `steps` steps from the current state and returns the state reached.
  State Simulate(uint32_t steps);

  // Prepares the download modes: `total / image` submissions of `image` steps, each ending with
  // a copy of V into host-visible slot k % kSlots. A second call with the same arguments keeps
  // what the first one made.
  void PrepareImages(uint32_t total, uint32_t image);
  // Runs the prepared submissions from the current state, kSlots of them in flight, and calls
  // `on_image(k, v)` for each image in order, while the device goes on with the next ones.
  // `v` is the V plane (Layout) of image k, valid until on_image returns.
  void RunImages(const std::function<void(uint32_t, std::span<const float>)>& on_image);

  // The timed loops; one iteration is one whole run of `total` steps from the initial state.
  // compute: GPU timestamps around the `total` dispatches of one command buffer.
  void MeasureCompute(benchmark::State& state, uint32_t total);
  // compute+download(+sum): the host clock from the first submission until the last image has
  // been handled, since host work is part of what is measured.
  void MeasureImages(benchmark::State& state, uint32_t total, uint32_t image, bool sum);

  // The instruction-mix ceiling's dispatch (OnChip): one pass of the variant's steps from state 0
  // into state 1 over `grid` workgroups, each advancing the tile of its ID's `group_mask` bits
  // (fused_shuffle.comp; the other kernels ignore the mask and take their own ID's tile).
  void RecordMaskedPass(Commands& c, const std::array<uint32_t, 3>& grid, uint32_t group_mask) const;
  // Resets with state 1 poisoned, runs RecordMaskedPass once and returns state 1.
  State MaskedPass(const std::array<uint32_t, 3>& grid, uint32_t group_mask);
  // The kernel, for its pipeline statistics.
  const KernelSpec& spec() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> s_;
};

// Compares `got`, the state after `steps` steps from `initial`, with the plain loop's, over U and
// V; a mismatch names the species and cell.
Comparison CompareWithReference(const State& initial, const State& got, uint32_t steps);

// Runs `steps` steps of the variant on `domain` (seeded whole) and compares U and V with the
// plain loop.
Comparison Check(Context& context, const Variant& variant, Extent workgroup, Extent domain = kCheckDomain,
                 uint32_t steps = kCheckSteps);

// The instruction-mix ceiling of a fused variant whose rows are subgroups (ceiling/<variant>_on_chip):
// the simulation's own pipeline (the same SPIR-V, so the same registers), dispatched over the grid
// of `domain`'s tiles with the workgroup IDs masked to their low 4 bits. Every workgroup runs a
// simulation pass's instructions (loads, shuffles, barriers, the update, stores) on one of 16 x 16
// tiles, a domain the L2 keeps, so the dispatch does the domain's work without its DRAM traffic:
// what a simulation pass of this kernel could do if memory cost no more than the L2. Workgroups
// that share a tile write the same values to the same cells; the result is that small domain's
// pass, checked against the plain loop.
class OnChip {
 public:
  OnChip(Context& context, const Variant& variant, Extent workgroup, Extent domain);
  ~OnChip();
  // One masked dispatch from the seeded 16 x 16 tiles' domain (fewer where the grid is smaller),
  // against the plain loop's pass of the variant's steps on that domain.
  Comparison Check();
  // One dispatch of the variant's steps over the domain's grid.
  void Record(Commands& c) const;
  // The cell-steps a simulation pass of the same grid advances: the domain's cells x steps.
  double cell_steps() const;
  // The kernel, for its pipeline statistics (registers, shared memory, spills).
  const KernelSpec& spec() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> s_;
};

// The family: run_simulation/<variant>/workgroup<X>x<Y>/domain<W>x<H>/total<N>/image<M>/<mode>,
// every variant x workgroup x run x mode (with a device), and the plain loop of each run in mode
// compute. Each run's length (total, image) is the run's own on the built-in domains and the
// chapter's (512 steps, an image every 32) on a --domain. The family's test checks every variant
// x workgroup on small domains (the fused variants also on one of several tiles a side), each
// at its first run length and mode, which the check does not depend on.
const Family<Variant>& Descriptor();

}  // namespace csbench::grayscott
