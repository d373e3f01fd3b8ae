#pragma once
// One accessor per table file (<library>_table.cc). Internal to the tables target: users go through
// MappingIndex / AllTables() in mapping_index.h.
#include <cstdint>
#include <span>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

constexpr uint16_t Bit(MappingFlag flag) { return static_cast<uint16_t>(flag); }

std::span<const ApiMapping> RuntimeTable();
std::span<const ApiMapping> DriverTable();
std::span<const ApiMapping> TypesTable();
std::span<const ApiMapping> DeviceTable();
std::span<const ApiMapping> ComplexTable();
std::span<const ApiMapping> BlasTable();
std::span<const ApiMapping> BlasLtTable();
std::span<const ApiMapping> RandTable();
std::span<const ApiMapping> FftTable();
std::span<const ApiMapping> SparseTable();
std::span<const ApiMapping> SolverTable();
std::span<const ApiMapping> DnnTable();
std::span<const ApiMapping> CubTable();
std::span<const ApiMapping> RtcTable();
std::span<const ApiMapping> CooperativeGroupsTable();
std::span<const ApiMapping> NcclTable();
std::span<const ApiMapping> TensorTable();
std::span<const ApiMapping> HeadersTable();
std::span<const ApiMapping> Caffe2Table();
std::span<const ApiMapping> NvtxTable();
std::span<const ApiMapping> NvmlTable();

}  // namespace hipforge::translate
