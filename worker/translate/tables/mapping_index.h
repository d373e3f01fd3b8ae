#pragma once
// Read-only lookup over all CUDA -> HIP mapping tables. The translator builds one MappingIndex and passes it
// to whatever needs lookups; there is no global instance. Free of Clang headers on purpose.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

// Every library table, in lookup-priority order (runtime first, headers last). The spans point at constant
// static data and stay valid for the life of the program.
std::vector<std::span<const ApiMapping>> AllTables();

// Short lower-case name of a library as used in reports and docs ("runtime", "blas", "cooperative_groups").
std::string_view LibraryName(ApiLibrary library);
std::string_view KindName(ApiKind kind);                // "function", "type", "enum", "enum_constant", ...
std::string_view SupportStateName(SupportState state);  // "supported", "unsupported", ...

// True when `mapping` can be emitted for a HIP/ROCm `target` release: HIP has it (hip_introduced unset or
// <= target), it is not removed there, and it is not unsupported. Experimental records still need the
// caller's --experimental decision on top of this.
bool AvailableInHip(const ApiMapping& mapping, ApiVersion target);

// hip_name as spelled in the `target` release: hip_name_before for releases up to hip_name_before_until.
std::string_view HipNameFor(const ApiMapping& mapping, ApiVersion target);

// What to emit for a record under hipify's --roc / --miopen options. roc_name is used when either option is on
// and the record has one (records flagged kRocMiopenOnly need --miopen itself); the state to honour is
// roc_state then, hip_state otherwise. An empty name means there is nothing to emit (see state).
struct ResolvedName {
  std::string_view name;
  SupportState state = SupportState::kSupported;
  bool from_roc = false;
};
ResolvedName Resolve(const ApiMapping& mapping, bool roc, bool miopen);
// Same, with the HIP name spelled as the `target` release spells it (see HipNameFor).
ResolvedName Resolve(const ApiMapping& mapping, bool roc, bool miopen, ApiVersion target);
// Same; with `use_hip_data_types` (hipify-clang's --use-hip-data-types) a kHipDataType record resolves to
// HIP's hipDataType / HIP_R_32F... even where --roc or --miopen would pick a library type (rocblas_datatype).
ResolvedName Resolve(const ApiMapping& mapping, bool roc, bool miopen, ApiVersion target, bool use_hip_data_types);

class MappingIndex {
 public:
  // Indexes AllTables().
  MappingIndex();
  // Indexes the given tables (tests use small hand-made ones). Earlier tables win in Find().
  explicit MappingIndex(std::vector<std::span<const ApiMapping>> tables);

  MappingIndex(const MappingIndex&) = delete;
  MappingIndex& operator=(const MappingIndex&) = delete;
  MappingIndex(MappingIndex&&) = default;
  MappingIndex& operator=(MappingIndex&&) = default;

  // The record for a CUDA identifier or header name; nullptr when unknown. When several tables map the same
  // name (e.g. a type shared by two libraries), the one from the earliest table is returned; FindAll gives all.
  const ApiMapping* Find(std::string_view cuda_name) const;
  // The record for `cuda_name` in one library only; nullptr when that library does not map it.
  const ApiMapping* Find(std::string_view cuda_name, ApiLibrary library) const;
  // All records with this CUDA name, in table order.
  std::span<const ApiMapping* const> FindAll(std::string_view cuda_name) const;

  // The whole table of one library (empty span when there is none).
  std::span<const ApiMapping> Table(ApiLibrary library) const;
  const std::vector<std::span<const ApiMapping>>& Tables() const { return tables_; }

  // Iteration over every record of every table, in table order.
  class const_iterator {
   public:
    using value_type = ApiMapping;
    using difference_type = std::ptrdiff_t;
    using reference = const ApiMapping&;
    using pointer = const ApiMapping*;
    using iterator_category = std::forward_iterator_tag;

    const_iterator() = default;
    reference operator*() const { return (*tables_)[table_][row_]; }
    pointer operator->() const { return &**this; }
    const_iterator& operator++();
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const const_iterator& other) const { return table_ == other.table_ && row_ == other.row_; }

   private:
    friend class MappingIndex;
    const_iterator(const std::vector<std::span<const ApiMapping>>* tables, size_t table);
    void SkipEmptyTables();
    const std::vector<std::span<const ApiMapping>>* tables_ = nullptr;
    size_t table_ = 0;
    size_t row_ = 0;
  };
  const_iterator begin() const { return const_iterator(&tables_, 0); }
  const_iterator end() const { return const_iterator(&tables_, tables_.size()); }
  size_t size() const { return record_count_; }

 private:
  struct NameRange {
    uint32_t first = 0;  // into by_name_
    uint32_t count = 0;
  };
  std::vector<std::span<const ApiMapping>> tables_;
  std::vector<const ApiMapping*> by_name_;  // grouped by cuda_name, table order within a group
  std::unordered_map<std::string_view, NameRange> names_;
  size_t record_count_ = 0;
};

}  // namespace hipforge::translate
