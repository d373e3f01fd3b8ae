#include "worker/translate/tables/mapping_index.h"

#include <algorithm>
#include <utility>

#include "worker/translate/tables/library_tables.h"

namespace hipforge::translate {

std::vector<std::span<const ApiMapping>> AllTables() {
  // Order is lookup priority for names mapped by more than one library: the core CUDA APIs first, then the
  // libraries, headers last (header names never collide with identifiers).
  return {RuntimeTable(), DriverTable(), TypesTable(),  DeviceTable(), ComplexTable(),
          BlasTable(),    BlasLtTable(), RandTable(),   FftTable(),    SparseTable(),
          SolverTable(),  DnnTable(),    CubTable(),    RtcTable(),    CooperativeGroupsTable(),
          NcclTable(),    TensorTable(), Caffe2Table(), NvtxTable(),   NvmlTable(),
          HeadersTable()};
}

std::string_view LibraryName(ApiLibrary library) {
  switch (library) {
    case ApiLibrary::kRuntime: return "runtime";
    case ApiLibrary::kDriver: return "driver";
    case ApiLibrary::kDevice: return "device";
    case ApiLibrary::kComplex: return "complex";
    case ApiLibrary::kBlas: return "blas";
    case ApiLibrary::kBlasLt: return "blaslt";
    case ApiLibrary::kRand: return "rand";
    case ApiLibrary::kFft: return "fft";
    case ApiLibrary::kSparse: return "sparse";
    case ApiLibrary::kSolver: return "solver";
    case ApiLibrary::kDnn: return "dnn";
    case ApiLibrary::kCub: return "cub";
    case ApiLibrary::kRtc: return "rtc";
    case ApiLibrary::kCooperativeGroups: return "cooperative_groups";
    case ApiLibrary::kNccl: return "nccl";
    case ApiLibrary::kTensor: return "tensor";
    case ApiLibrary::kHeaders: return "headers";
    case ApiLibrary::kTypes: return "types";
    case ApiLibrary::kCaffe2: return "caffe2";
    case ApiLibrary::kNvtx: return "nvtx";
    case ApiLibrary::kNvml: return "nvml";
  }
  return "unknown";
}

std::string_view KindName(ApiKind kind) {
  switch (kind) {
    case ApiKind::kFunction: return "function";
    case ApiKind::kType: return "type";
    case ApiKind::kEnumType: return "enum";
    case ApiKind::kEnumConstant: return "enum_constant";
    case ApiKind::kMacro: return "macro";
    case ApiKind::kHeader: return "header";
    case ApiKind::kNamespace: return "namespace";
  }
  return "unknown";
}

std::string_view SupportStateName(SupportState state) {
  switch (state) {
    case SupportState::kSupported: return "supported";
    case SupportState::kUnsupported: return "unsupported";
    case SupportState::kDeprecated: return "deprecated";
    case SupportState::kRemoved: return "removed";
    case SupportState::kExperimental: return "experimental";
  }
  return "unknown";
}

bool AvailableInHip(const ApiMapping& mapping, ApiVersion target) {
  if (mapping.hip_state == SupportState::kUnsupported) return false;
  if (mapping.hip_introduced.IsSet() && target < mapping.hip_introduced) return false;
  if (mapping.hip_removed.IsSet() && !(target < mapping.hip_removed)) return false;
  return true;
}

std::string_view HipNameFor(const ApiMapping& mapping, ApiVersion target) {
  if (!mapping.hip_name_before.empty() && !(mapping.hip_name_before_until < target)) return mapping.hip_name_before;
  return mapping.hip_name;
}

ResolvedName Resolve(const ApiMapping& mapping, bool roc, bool miopen) {
  const bool wants_roc = roc || miopen;
  const bool roc_allowed = !HasFlag(mapping, MappingFlag::kRocMiopenOnly) || miopen;
  if (wants_roc && roc_allowed && !mapping.roc_name.empty()) {
    return {mapping.roc_name, mapping.roc_state, true};
  }
  if (wants_roc && roc_allowed && mapping.roc_state == SupportState::kUnsupported &&
      mapping.hip_state != SupportState::kUnsupported && mapping.roc_name.empty() &&
      mapping.library != ApiLibrary::kHeaders) {
    // A library record that rocBLAS/rocSPARSE/... lack: with --roc there is nothing to emit.
    return {{}, SupportState::kUnsupported, true};
  }
  return {mapping.hip_name, mapping.hip_state, false};
}

ResolvedName Resolve(const ApiMapping& mapping, bool roc, bool miopen, ApiVersion target) {
  ResolvedName resolved = Resolve(mapping, roc, miopen);
  if (!resolved.from_roc && resolved.name == mapping.hip_name) resolved.name = HipNameFor(mapping, target);
  return resolved;
}

ResolvedName Resolve(const ApiMapping& mapping, bool roc, bool miopen, ApiVersion target, bool use_hip_data_types) {
  if (use_hip_data_types && HasFlag(mapping, MappingFlag::kHipDataType)) {
    return {HipNameFor(mapping, target), mapping.hip_state, false};
  }
  return Resolve(mapping, roc, miopen, target);
}

MappingIndex::MappingIndex() : MappingIndex(AllTables()) {}

MappingIndex::MappingIndex(std::vector<std::span<const ApiMapping>> tables) : tables_(std::move(tables)) {
  for (const auto& table : tables_) record_count_ += table.size();
  by_name_.reserve(record_count_);
  for (const auto& table : tables_) {
    for (const ApiMapping& mapping : table) by_name_.push_back(&mapping);
  }
  // Stable: records sharing a name keep table order, so the first of a group is the priority winner.
  std::stable_sort(by_name_.begin(), by_name_.end(),
                   [](const ApiMapping* a, const ApiMapping* b) { return a->cuda_name < b->cuda_name; });
  names_.reserve(by_name_.size());
  for (uint32_t i = 0; i < by_name_.size();) {
    uint32_t end = i + 1;
    while (end < by_name_.size() && by_name_[end]->cuda_name == by_name_[i]->cuda_name) ++end;
    names_.emplace(by_name_[i]->cuda_name, NameRange{i, end - i});
    i = end;
  }
}

std::span<const ApiMapping* const> MappingIndex::FindAll(std::string_view cuda_name) const {
  auto it = names_.find(cuda_name);
  if (it == names_.end()) return {};
  return std::span<const ApiMapping* const>(by_name_).subspan(it->second.first, it->second.count);
}

const ApiMapping* MappingIndex::Find(std::string_view cuda_name) const {
  auto all = FindAll(cuda_name);
  return all.empty() ? nullptr : all.front();
}

const ApiMapping* MappingIndex::Find(std::string_view cuda_name, ApiLibrary library) const {
  for (const ApiMapping* mapping : FindAll(cuda_name)) {
    if (mapping->library == library) return mapping;
  }
  return nullptr;
}

std::span<const ApiMapping> MappingIndex::Table(ApiLibrary library) const {
  for (const auto& table : tables_) {
    if (!table.empty() && table.front().library == library) return table;
  }
  return {};
}

MappingIndex::const_iterator::const_iterator(const std::vector<std::span<const ApiMapping>>* tables, size_t table)
    : tables_(tables), table_(table) {
  SkipEmptyTables();
}

void MappingIndex::const_iterator::SkipEmptyTables() {
  while (table_ < tables_->size() && row_ >= (*tables_)[table_].size()) {
    ++table_;
    row_ = 0;
  }
}

MappingIndex::const_iterator& MappingIndex::const_iterator::operator++() {
  ++row_;
  SkipEmptyTables();
  return *this;
}

}  // namespace hipforge::translate
