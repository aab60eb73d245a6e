// Which storage buffers a shader reads and which it writes, by its instructions rather than its
// declarations: a buffer declared without readonly or writeonly (generated code often is) may be
// only read or only written, and a replay restores before each timed dispatch only what the shader
// both reads and writes.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace csbench::capture {

struct Access {
  bool read = false, written = false;
};

// By (set, binding): loads, stores, copies and atomics through pointers into each descriptor
// variable of the storage-buffer or uniform storage classes. A pointer the scan cannot follow (passed to a
// function, chosen by OpSelect or OpPhi, converted) counts as both read and written.
std::map<std::pair<uint32_t, uint32_t>, Access> AccessOf(const std::vector<uint32_t>& spirv);

}  // namespace csbench::capture
