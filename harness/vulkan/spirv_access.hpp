// Which buffers a shader reads and which it writes, by its instructions rather than its
// declarations: a buffer declared without readonly or writeonly (generated code often is) may be
// only read or only written. ReflectInterface gives each Resource its part of this.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <utility>

namespace csbench::spirv {

struct Access {
  bool reads = false, writes = false;
};

// By (set, binding): loads, stores, copies and atomics through pointers into each descriptor
// variable of the StorageBuffer or Uniform storage classes (storage and uniform buffers). A pointer
// the scan cannot follow (passed to a function, chosen by OpSelect or OpPhi, converted) counts as
// both read and written. A binding the instructions never use is absent. The walk stops at a
// malformed instruction (spirv_words.hpp): what comes after it is not read.
std::map<std::pair<uint32_t, uint32_t>, Access> AccessBySlot(std::span<const uint32_t> module);

}  // namespace csbench::spirv
