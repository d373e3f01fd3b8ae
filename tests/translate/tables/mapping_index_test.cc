// MappingIndex lookups, iteration and the --roc/--miopen and target-version helpers, on small hand-made
// tables (exact expectations) and on the real ones (sizes).
#include "worker/translate/tables/mapping_index.h"

#include <gtest/gtest.h>

#include <set>

namespace hipforge::translate {
namespace {

constexpr ApiMapping kRuntime[] = {
    {.cuda_name = "cudaMalloc",
     .hip_name = "hipMalloc",
     .library = ApiLibrary::kRuntime,
     .roc_state = SupportState::kSupported,
     .hip_introduced = {1, 5}},
    {.cuda_name = "cudaShared", .hip_name = "hipSharedFromRuntime", .library = ApiLibrary::kRuntime},
    {.cuda_name = "cudaNew",
     .hip_name = "hipNew",
     .library = ApiLibrary::kRuntime,
     .hip_introduced = {6, 2},
     .hip_removed = {7, 0}},
    {.cuda_name = "cudaGone", .library = ApiLibrary::kRuntime, .hip_state = SupportState::kUnsupported},
    {.cuda_name = "CU_RENAMED",
     .hip_name = "HIP_NEW_SPELLING",
     .library = ApiLibrary::kRuntime,
     .roc_state = SupportState::kSupported,
     .hip_name_before = "hipOldSpelling",
     .hip_name_before_until = {5, 2}},
};
constexpr ApiMapping kBlas[] = {
    {.cuda_name = "cublasSgemm_v2",
     .hip_name = "hipblasSgemm",
     .roc_name = "rocblas_sgemm",
     .library = ApiLibrary::kBlas,
     .roc_state = SupportState::kSupported},
    {.cuda_name = "cudaShared", .hip_name = "hipSharedFromBlas", .library = ApiLibrary::kBlas},
    {.cuda_name = "cublasRocLacks",
     .hip_name = "hipblasRocLacks",
     .library = ApiLibrary::kBlas,
     .roc_state = SupportState::kUnsupported},
    {.cuda_name = "cudaStream_t",
     .hip_name = "hipStream_t",
     .roc_name = "miopenAcceleratorQueue_t",
     .library = ApiLibrary::kBlas,
     .roc_state = SupportState::kSupported,
     .flags = static_cast<uint16_t>(MappingFlag::kRocMiopenOnly)},
};
constexpr ApiMapping kEmpty[1] = {};

MappingIndex SmallIndex() { return MappingIndex({kRuntime, kBlas}); }

TEST(MappingIndexTest, FindReturnsTheRecordOrNull) {
  const MappingIndex index = SmallIndex();
  const ApiMapping* m = index.Find("cudaMalloc");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->hip_name, "hipMalloc");
  EXPECT_EQ(index.Find("cudaMallocc"), nullptr);
  EXPECT_EQ(index.Find(""), nullptr);
}

TEST(MappingIndexTest, EarlierTableWinsAndFindAllReturnsEveryRecord) {
  const MappingIndex index = SmallIndex();
  EXPECT_EQ(index.Find("cudaShared")->hip_name, "hipSharedFromRuntime");
  auto all = index.FindAll("cudaShared");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->library, ApiLibrary::kRuntime);
  EXPECT_EQ(all[1]->library, ApiLibrary::kBlas);
  EXPECT_EQ(index.Find("cudaShared", ApiLibrary::kBlas)->hip_name, "hipSharedFromBlas");
  EXPECT_EQ(index.Find("cudaMalloc", ApiLibrary::kBlas), nullptr);
  EXPECT_TRUE(index.FindAll("nothing").empty());
}

TEST(MappingIndexTest, TableByLibrary) {
  const MappingIndex index = SmallIndex();
  EXPECT_EQ(index.Table(ApiLibrary::kRuntime).data(), kRuntime);
  EXPECT_EQ(index.Table(ApiLibrary::kBlas).size(), std::size(kBlas));
  EXPECT_TRUE(index.Table(ApiLibrary::kDnn).empty());
}

TEST(MappingIndexTest, IteratesAllRecordsInTableOrderSkippingEmptyTables) {
  const MappingIndex index({std::span<const ApiMapping>(), kRuntime, std::span<const ApiMapping>(kEmpty, 0), kBlas,
                            std::span<const ApiMapping>()});
  std::vector<std::string_view> names;
  for (const ApiMapping& m : index) names.push_back(m.cuda_name);
  ASSERT_EQ(names.size(), std::size(kRuntime) + std::size(kBlas));
  EXPECT_EQ(index.size(), names.size());
  EXPECT_EQ(names.front(), "cudaMalloc");
  EXPECT_EQ(names.back(), "cudaStream_t");
  const MappingIndex empty(std::vector<std::span<const ApiMapping>>{});
  EXPECT_TRUE(empty.begin() == empty.end());
}

TEST(MappingIndexTest, AvailableInHipFollowsIntroducedAndRemoved) {
  const MappingIndex index = SmallIndex();
  EXPECT_TRUE(AvailableInHip(*index.Find("cudaMalloc"), {5, 2}));
  EXPECT_FALSE(AvailableInHip(*index.Find("cudaMalloc"), {1, 4}));
  EXPECT_TRUE(AvailableInHip(*index.Find("cudaShared"), {1, 0}));  // no version recorded: assume present
  EXPECT_FALSE(AvailableInHip(*index.Find("cudaNew"), {6, 1}));
  EXPECT_TRUE(AvailableInHip(*index.Find("cudaNew"), {6, 2}));
  EXPECT_FALSE(AvailableInHip(*index.Find("cudaNew"), {7, 0}));
  EXPECT_FALSE(AvailableInHip(*index.Find("cudaGone"), {9, 9}));
}

TEST(MappingIndexTest, ResolveFollowsHipifyRocAndMiopenRules) {
  const MappingIndex index = SmallIndex();
  const ApiMapping& gemm = *index.Find("cublasSgemm_v2");
  EXPECT_EQ(Resolve(gemm, false, false).name, "hipblasSgemm");
  EXPECT_FALSE(Resolve(gemm, false, false).from_roc);
  EXPECT_EQ(Resolve(gemm, true, false).name, "rocblas_sgemm");
  EXPECT_TRUE(Resolve(gemm, true, false).from_roc);
  EXPECT_EQ(Resolve(gemm, false, true).name, "rocblas_sgemm");

  const ApiMapping& lacks = *index.Find("cublasRocLacks");
  EXPECT_EQ(Resolve(lacks, false, false).name, "hipblasRocLacks");
  EXPECT_EQ(Resolve(lacks, true, false).state, SupportState::kUnsupported);
  EXPECT_TRUE(Resolve(lacks, true, false).name.empty());

  const ApiMapping& stream = *index.Find("cudaStream_t");
  EXPECT_EQ(Resolve(stream, true, false).name, "hipStream_t");  // MIOpen-only roc name
  EXPECT_EQ(Resolve(stream, false, true).name, "miopenAcceleratorQueue_t");

  const ApiMapping& malloc_record = *index.Find("cudaMalloc");
  EXPECT_EQ(Resolve(malloc_record, true, true).name, "hipMalloc");
}

TEST(MappingIndexTest, OlderReleasesGetTheOlderSpelling) {
  const MappingIndex index = SmallIndex();
  const ApiMapping& renamed = *index.Find("CU_RENAMED");
  EXPECT_EQ(HipNameFor(renamed, {5, 1}), "hipOldSpelling");
  EXPECT_EQ(HipNameFor(renamed, {5, 2}), "hipOldSpelling");
  EXPECT_EQ(HipNameFor(renamed, {5, 3}), "HIP_NEW_SPELLING");
  EXPECT_EQ(Resolve(renamed, false, false, {5, 2}).name, "hipOldSpelling");
  EXPECT_EQ(Resolve(renamed, false, false, {6, 4}).name, "HIP_NEW_SPELLING");
  EXPECT_EQ(Resolve(renamed, false, false).name, "HIP_NEW_SPELLING");
  EXPECT_EQ(HipNameFor(*index.Find("cudaMalloc"), {5, 2}), "hipMalloc");
}

TEST(MappingIndexTest, RealTablesAreAllIndexed) {
  const MappingIndex index;
  size_t total = 0;
  std::set<std::string_view> names;
  for (const auto& table : AllTables()) {
    total += table.size();
    for (const ApiMapping& m : table) names.insert(m.cuda_name);
  }
  EXPECT_EQ(index.size(), total);
  size_t iterated = 0;
  for (const ApiMapping& m : index) {
    ++iterated;
    EXPECT_NE(index.Find(m.cuda_name), nullptr);
    EXPECT_NE(index.Find(m.cuda_name, m.library), nullptr);
  }
  EXPECT_EQ(iterated, total);
  EXPECT_EQ(index.Table(ApiLibrary::kDnn).front().library, ApiLibrary::kDnn);
  EXPECT_EQ(names.size() + 3, total);  // the three known cross-table duplicates (mapping_tables_test.cc)
}

TEST(MappingIndexTest, NamesForReports) {
  EXPECT_EQ(LibraryName(ApiLibrary::kCooperativeGroups), "cooperative_groups");
  EXPECT_EQ(LibraryName(ApiLibrary::kTypes), "types");
  EXPECT_EQ(KindName(ApiKind::kEnumConstant), "enum_constant");
  EXPECT_EQ(SupportStateName(SupportState::kExperimental), "experimental");
}

}  // namespace
}  // namespace hipforge::translate
