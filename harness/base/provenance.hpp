// What changes what a run measures besides the code of its revision, for the JSON's context: the
// environment's overrides of the kernels (a folder of other kernels, defines added to every
// kernel or to one variant's, as scripts/regression-check.sh plants a slowdown with) and the
// users' manifests the run loaded, each with a hash of its files. A run with an override is an
// experiment: scripts/history.py leaves it out of the steps it finds between revisions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace csbench {

// The environment variables that change the kernels a run compiles, each read where the kernels
// are compiled (harness/vulkan/shader_compiler.cpp).
inline constexpr std::string_view kKernelOverrides[] = {"CSBENCH_KERNEL_DIR", "CSBENCH_EXTRA_DEFINES",
                                                        "CSBENCH_EXTRA_DEFINES_VARIANT"};

struct ManifestSource {
  std::string path;    // as the command line gave it
  std::string sha256;  // of the manifest's text and, in order, each source file it names
};

struct Provenance {
  std::vector<std::pair<std::string, std::string>> overrides;  // those of kKernelOverrides set, non-empty
  std::vector<ManifestSource> manifests;
};

// Notes a manifest the run loaded.
void NoteManifest(ManifestSource source);
// The overrides in the environment now, and the manifests noted.
Provenance RunProvenance();

// The SHA-256 digest of `bytes`, in lowercase hexadecimal (FIPS 180-4).
std::string Sha256Hex(std::string_view bytes);

}  // namespace csbench
