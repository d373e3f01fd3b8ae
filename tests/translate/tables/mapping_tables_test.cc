// Invariants of the mapping data itself: every library has a table, names are unique per table, states,
// versions and flags agree with each other.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "worker/translate/tables/mapping_index.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate {
namespace {

constexpr ApiLibrary kAllLibraries[] = {ApiLibrary::kRuntime, ApiLibrary::kDriver,
                                        ApiLibrary::kDevice,  ApiLibrary::kComplex,
                                        ApiLibrary::kBlas,    ApiLibrary::kBlasLt,
                                        ApiLibrary::kRand,    ApiLibrary::kFft,
                                        ApiLibrary::kSparse,  ApiLibrary::kSolver,
                                        ApiLibrary::kDnn,     ApiLibrary::kCub,
                                        ApiLibrary::kRtc,     ApiLibrary::kCooperativeGroups,
                                        ApiLibrary::kNccl,    ApiLibrary::kTensor,
                                        ApiLibrary::kHeaders, ApiLibrary::kTypes,
                                        ApiLibrary::kCaffe2,  ApiLibrary::kNvtx,
                                        ApiLibrary::kNvml};

std::string Describe(const ApiMapping& m) {
  return std::string(LibraryName(m.library)) + ":" + std::string(m.cuda_name);
}

bool Emitted(SupportState state) {
  return state == SupportState::kSupported || state == SupportState::kDeprecated || state == SupportState::kRemoved;
}

TEST(MappingTablesTest, EveryLibraryHasOneNonEmptyTableOfItsOwnRecords) {
  const auto tables = AllTables();
  std::set<ApiLibrary> seen;
  for (const auto& table : tables) {
    ASSERT_FALSE(table.empty());
    const ApiLibrary library = table.front().library;
    EXPECT_TRUE(seen.insert(library).second) << "two tables for " << LibraryName(library);
    for (const ApiMapping& m : table) {
      EXPECT_EQ(m.library, library) << Describe(m) << " sits in the " << LibraryName(library) << " table";
    }
  }
  for (ApiLibrary library : kAllLibraries) {
    EXPECT_TRUE(seen.count(library)) << "no table for " << LibraryName(library);
  }
}

TEST(MappingTablesTest, PrintsRecordCountsPerLibrary) {
  size_t total = 0;
  for (const auto& table : AllTables()) {
    std::cout << "  " << LibraryName(table.front().library) << ": " << table.size() << "\n";
    total += table.size();
  }
  std::cout << "  all: " << total << "\n";
  EXPECT_GT(total, 9000u);  // HIPIFY's data alone has over 9000 names
}

TEST(MappingTablesTest, NoDuplicateCudaNameWithinATable) {
  for (const auto& table : AllTables()) {
    std::set<std::string_view> names;
    for (const ApiMapping& m : table) {
      EXPECT_FALSE(m.cuda_name.empty()) << "empty CUDA name in " << LibraryName(m.library);
      EXPECT_TRUE(names.insert(m.cuda_name).second) << "duplicate " << Describe(m);
    }
  }
}

// Names mapped by two libraries are allowed only when listed here on purpose; MappingIndex::Find returns the
// record of the earlier table (see AllTables()), FindAll returns both.
TEST(MappingTablesTest, CrossTableDuplicatesAreTheKnownOnes) {
  std::map<std::string_view, std::vector<ApiLibrary>> libraries_by_name;
  for (const auto& table : AllTables()) {
    for (const ApiMapping& m : table) libraries_by_name[m.cuda_name].push_back(m.library);
  }
  std::set<std::string> duplicates;
  for (const auto& [name, libraries] : libraries_by_name) {
    if (libraries.size() < 2) continue;
    std::string text(name);
    for (ApiLibrary library : libraries) text += " " + std::string(LibraryName(library));
    std::cout << "  cross-table: " << text << "\n";
    duplicates.insert(text);
  }
  // library_types.h's libraryPropertyType is also used by cuDNN: the runtime side maps it to
  // hipLibraryPropertyType_t, hipDNN to its own hipdnnLibraryPropertyType. Find() prefers the types table;
  // a translator that knows it is in cuDNN code asks Find(name, ApiLibrary::kDnn).
  // __nv_bfloat16: cuda_bf16.h's type (device: __hip_bfloat16) and HIPIFY's hipBLAS type (blas: hip_bfloat16).
  const std::set<std::string> expected = {"libraryPropertyType types dnn", "libraryPropertyType_t types dnn",
                                          "__nv_bfloat16 device blas"};
  EXPECT_EQ(duplicates, expected);
  const MappingIndex index;
  for (std::string_view name : {"libraryPropertyType", "libraryPropertyType_t"}) {
    ASSERT_EQ(index.FindAll(name).size(), 2u);
    EXPECT_EQ(index.Find(name)->library, ApiLibrary::kTypes) << name;
    EXPECT_EQ(index.Find(name)->hip_name, "hipLibraryPropertyType_t") << name;
    EXPECT_EQ(index.Find(name, ApiLibrary::kDnn)->hip_name.substr(0, 7), "hipdnnL") << name;
  }
}

TEST(MappingTablesTest, EveryTranslatedRecordHasAHipName) {
  for (const auto& table : AllTables()) {
    for (const ApiMapping& m : table) {
      if (HasFlag(m, MappingFlag::kDropInclude)) {
        EXPECT_TRUE(m.hip_name.empty()) << Describe(m);
        EXPECT_EQ(m.kind, ApiKind::kHeader) << Describe(m);
        continue;
      }
      if (HasFlag(m, MappingFlag::kDropWord)) {
        EXPECT_TRUE(m.hip_name.empty()) << Describe(m);
        EXPECT_NE(m.kind, ApiKind::kHeader) << Describe(m);
        continue;
      }
      if (Emitted(m.hip_state) || m.hip_state == SupportState::kExperimental) {
        EXPECT_FALSE(m.hip_name.empty()) << Describe(m) << " is " << SupportStateName(m.hip_state);
      }
      if (!m.roc_name.empty()) {
        EXPECT_NE(m.roc_state, SupportState::kExperimental) << Describe(m);
      }
    }
  }
}

TEST(MappingTablesTest, StatesAgreeWithVersions) {
  for (const auto& table : AllTables()) {
    for (const ApiMapping& m : table) {
      if (m.hip_state == SupportState::kRemoved) {
        EXPECT_TRUE(m.cuda_removed.IsSet()) << Describe(m) << " is removed without a CUDA version";
      }
      if (m.cuda_removed.IsSet()) {
        EXPECT_NE(m.hip_state, SupportState::kSupported) << Describe(m) << " removed from CUDA but 'supported'";
        EXPECT_NE(m.hip_state, SupportState::kDeprecated) << Describe(m);
      }
      if (m.cuda_deprecated.IsSet()) {
        EXPECT_NE(m.hip_state, SupportState::kSupported) << Describe(m) << " deprecated in CUDA but 'supported'";
      }
    }
  }
}

TEST(MappingTablesTest, VersionsAreOrdered) {
  auto ordered = [](ApiVersion earlier, ApiVersion later) {
    return !earlier.IsSet() || !later.IsSet() || earlier <= later;
  };
  for (const auto& table : AllTables()) {
    for (const ApiMapping& m : table) {
      EXPECT_TRUE(ordered(m.cuda_introduced, m.cuda_deprecated)) << Describe(m);
      EXPECT_TRUE(ordered(m.cuda_deprecated, m.cuda_removed)) << Describe(m);
      EXPECT_TRUE(ordered(m.cuda_introduced, m.cuda_removed)) << Describe(m);
      EXPECT_TRUE(ordered(m.hip_introduced, m.hip_deprecated)) << Describe(m);
      EXPECT_TRUE(ordered(m.hip_deprecated, m.hip_removed)) << Describe(m);
      EXPECT_TRUE(ordered(m.hip_introduced, m.hip_removed)) << Describe(m);
      // HIP/ROCm releases so far are 1.x to 7.x; CUDA-side numbers include library releases (cuDNN 9, NCCL 2).
      if (m.hip_introduced.IsSet()) {
        EXPECT_GE(m.hip_introduced.major, 1) << Describe(m);
        EXPECT_LE(m.hip_introduced.major, 7) << Describe(m);
      }
      if (!m.hip_name_before.empty()) {
        EXPECT_TRUE(m.hip_name_before_until.IsSet()) << Describe(m);
        EXPECT_FALSE(m.hip_name.empty()) << Describe(m);
      }
      if (m.roc_introduced.IsSet()) {
        EXPECT_FALSE(m.roc_name.empty()) << Describe(m) << " has a ROC version but no ROC name";
      }
    }
  }
}

TEST(MappingTablesTest, FlagsSitOnTheRecordsTheyDescribe) {
  int main_headers = 0;
  int v2_only = 0;
  for (const auto& table : AllTables()) {
    for (const ApiMapping& m : table) {
      if (HasFlag(m, MappingFlag::kMainHeader) || HasFlag(m, MappingFlag::kMainHeaderV2) ||
          HasFlag(m, MappingFlag::kDropInclude)) {
        EXPECT_EQ(m.kind, ApiKind::kHeader) << Describe(m);
      }
      if (HasFlag(m, MappingFlag::kMainHeaderV2)) {
        EXPECT_TRUE(HasFlag(m, MappingFlag::kMainHeader)) << Describe(m);
      }
      if (HasFlag(m, MappingFlag::kBlasV2Only)) {
        EXPECT_EQ(m.library, ApiLibrary::kBlas) << Describe(m);
        ++v2_only;
      }
      if (HasFlag(m, MappingFlag::kRocMiopenOnly)) EXPECT_FALSE(m.roc_name.empty()) << Describe(m);
      if (m.kind == ApiKind::kHeader) EXPECT_EQ(m.library, ApiLibrary::kHeaders) << Describe(m);
      if (HasFlag(m, MappingFlag::kMainHeader)) ++main_headers;
    }
  }
  EXPECT_GT(main_headers, 10);
  EXPECT_GT(v2_only, 100);
}

// roc_name is only set where hipify's --roc/--miopen switch applies (rocBLAS, rocSPARSE, rocSOLVER, rocRAND,
// MIOpen and the runtime/device/complex names those libraries use).
TEST(MappingTablesTest, RocNamesOnlyWhereRocTranslationApplies) {
  const std::set<ApiLibrary> roc_libraries = {ApiLibrary::kRuntime, ApiLibrary::kTypes,  ApiLibrary::kDevice,
                                              ApiLibrary::kComplex, ApiLibrary::kBlas,   ApiLibrary::kBlasLt,
                                              ApiLibrary::kRand,    ApiLibrary::kSparse, ApiLibrary::kSolver,
                                              ApiLibrary::kDnn,     ApiLibrary::kHeaders};
  for (const auto& table : AllTables()) {
    for (const ApiMapping& m : table) {
      if (!m.roc_name.empty()) EXPECT_TRUE(roc_libraries.count(m.library)) << Describe(m);
    }
  }
}

// The translator gates names on the target ROCm release, which needs hip_introduced. HIPIFY dates every
// translated name of these libraries; the others are reported (hipDNN, RCCL, cooperative groups and
// headers carry no versions).
TEST(MappingTablesTest, TranslatedRecordsCarryAHipVersion) {
  const std::set<ApiLibrary> fully_dated = {ApiLibrary::kRuntime, ApiLibrary::kDevice, ApiLibrary::kComplex,
                                            ApiLibrary::kRand,    ApiLibrary::kFft,    ApiLibrary::kSparse,
                                            ApiLibrary::kRtc,     ApiLibrary::kTensor};
  for (const auto& table : AllTables()) {
    int undated = 0;
    for (const ApiMapping& m : table) {
      if (m.hip_state == SupportState::kUnsupported || m.hip_name.empty() || m.hip_introduced.IsSet()) continue;
      ++undated;
      if (fully_dated.count(m.library)) ADD_FAILURE() << Describe(m) << " has no hip_introduced";
    }
    if (undated > 0) std::cout << "  undated in " << LibraryName(table.front().library) << ": " << undated << "\n";
  }
}

// A handful of facts the translator (and HIPIFY's lit suite) relies on.
TEST(MappingTablesTest, KnownFacts) {
  const MappingIndex index;
  auto expect = [&](std::string_view cuda, std::string_view hip, std::string_view roc = {}) {
    const ApiMapping* m = index.Find(cuda);
    ASSERT_NE(m, nullptr) << cuda;
    EXPECT_EQ(m->hip_name, hip) << cuda;
    if (!roc.empty()) EXPECT_EQ(m->roc_name, roc) << cuda;
  };
  expect("cudaMalloc", "hipMalloc");
  expect("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice");
  expect("cuCtxCreate", "hipCtxCreate");
  expect("CUresult", "hipError_t");
  expect("cublasSgemm_v2", "hipblasSgemm", "rocblas_sgemm");
  expect("cublasHandle_t", "hipblasHandle_t", "rocblas_handle");
  expect("cudnnConvolutionForward", "hipdnnConvolutionForward", "miopenConvolutionForward");
  expect("curandCreateGenerator", "hiprandCreateGenerator", "rocrand_create_generator");
  expect("cufftPlan1d", "hipfftPlan1d");
  expect("cusparseCreate", "hipsparseCreate", "rocsparse_create_handle");
  expect("cusolverDnCreate", "hipsolverDnCreate", "rocblas_create_handle");
  expect("nvrtcCompileProgram", "hiprtcCompileProgram");
  expect("cub", "hipcub");
  expect("cuComplex", "hipComplex");
  expect("ncclAllReduce", "ncclAllReduce");
  expect("cutensorCreate", "hiptensorCreate");
  expect("cooperative_groups::this_thread_block", "cooperative_groups::this_thread_block");
  expect("cuda_runtime.h", "hip/hip_runtime.h");
  expect("cublas_v2.h", "hipblas.h", "rocblas.h");
  expect("cudnn.h", "hipDNN.h", "miopen/miopen.h");
  expect("nccl.h", "rccl/rccl.h");

  const ApiMapping* legacy = index.Find("cublasSgemm");
  ASSERT_NE(legacy, nullptr);
  EXPECT_TRUE(HasFlag(*legacy, MappingFlag::kBlasV2Only));
  EXPECT_TRUE(HasFlag(*index.Find("cublas_v2.h"), MappingFlag::kMainHeaderV2));
  EXPECT_TRUE(HasFlag(*index.Find("device_launch_parameters.h"), MappingFlag::kDropInclude));
  EXPECT_EQ(index.Find("cudaThreadExit")->hip_state, SupportState::kDeprecated);
  EXPECT_EQ(index.Find("cudaThreadExit")->cuda_deprecated, (ApiVersion{10, 0}));
  EXPECT_EQ(index.Find("cudaDeviceFlushGPUDirectRDMAWrites")->hip_state, SupportState::kUnsupported);
  EXPECT_EQ(index.Find("cudaMalloc")->hip_introduced, (ApiVersion{1, 5}));
  const ApiMapping* jit = index.Find("CU_JIT_MAX_REGISTERS");
  ASSERT_NE(jit, nullptr);
  EXPECT_EQ(HipNameFor(*jit, {5, 2}), "hipJitOptionMaxRegisters");
  EXPECT_EQ(HipNameFor(*jit, {6, 2}), "HIPRTC_JIT_MAX_REGISTERS");
}

TEST(MappingTablesTest, WarpSyncIntrinsicsNeedRocm62) {
  const MappingIndex index;
  for (std::string_view name : {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                                "__any_sync", "__all_sync"}) {
    const ApiMapping* m = index.Find(name, ApiLibrary::kDevice);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_EQ(m->hip_name, name);
    EXPECT_EQ(m->hip_introduced, (ApiVersion{6, 2})) << name;
    EXPECT_FALSE(AvailableInHip(*m, {5, 2})) << name;
    EXPECT_TRUE(AvailableInHip(*m, {6, 2})) << name;
  }
  // The maskless forms HIP 5.x offers instead.
  for (std::string_view name : {"__shfl_down", "__shfl_up", "__shfl_xor", "__shfl", "__ballot", "__any", "__all"}) {
    const ApiMapping* m = index.Find(name, ApiLibrary::kDevice);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_TRUE(AvailableInHip(*m, {5, 2})) << name;
  }
}

// The warp-intrinsic table is the one list HB102, the AST pass, the token pass and the name resolver read; what
// it says of HIP agrees with the device table's records.
TEST(MappingTablesTest, WarpIntrinsicsAgreeWithTheDeviceTable) {
  const MappingIndex index;
  std::set<std::string_view> names;
  for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
    EXPECT_TRUE(names.insert(intrinsic.name).second) << intrinsic.name << " listed twice";
    if (intrinsic.maskless.empty()) continue;
    EXPECT_TRUE(intrinsic.lane_mask) << intrinsic.name;
    EXPECT_TRUE(intrinsic.needs_sync_builtins) << intrinsic.name;
    const ApiMapping* with_mask = index.Find(intrinsic.name, ApiLibrary::kDevice);
    ASSERT_NE(with_mask, nullptr) << intrinsic.name;
    EXPECT_EQ(with_mask->hip_introduced, (ApiVersion{6, 2})) << intrinsic.name;
    const ApiMapping* maskless = index.Find(intrinsic.maskless, ApiLibrary::kDevice);
    ASSERT_NE(maskless, nullptr) << intrinsic.maskless;
    EXPECT_LT(maskless->hip_introduced, (ApiVersion{6, 2})) << intrinsic.maskless;
  }
  ASSERT_NE(FindWarpIntrinsic("__shfl_down_sync"), nullptr);
  EXPECT_EQ(FindWarpIntrinsic("__shfl_down_sync")->maskless, "__shfl_down");
  EXPECT_TRUE(FindWarpIntrinsic("__fns")->lane_mask);
  EXPECT_FALSE(FindWarpIntrinsic("__activemask")->lane_mask);
  EXPECT_TRUE(FindWarpIntrinsic("__activemask")->needs_sync_builtins);
  EXPECT_EQ(FindWarpIntrinsic("__shfl"), nullptr);
}

// What the analyzer's warp-width rules ask the table (HB101 lane primitives, HB103 lane masks, HB104 shuffles): the
// sets they spelled out by hand before.
TEST(MappingTablesTest, WarpIntrinsicsSayWhatTheyDo) {
  std::set<std::string> shuffles, masks;
  for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
    for (std::string_view spelling : {intrinsic.name, intrinsic.maskless}) {
      if (spelling.empty()) continue;
      EXPECT_EQ(FindWarpIntrinsicSpelling(spelling), &intrinsic) << spelling;
      if (IsShuffle(intrinsic.op)) shuffles.insert(std::string(spelling));
      if (ReturnsLaneMask(intrinsic.op)) masks.insert(std::string(spelling));
    }
    // The tile members the analyzer takes for warp code by name alone (ast_helpers.cc): shuffles and ballot.
    EXPECT_EQ(IsShuffle(intrinsic.op) || intrinsic.op == WarpOp::kBallot, !intrinsic.group_member.empty())
        << intrinsic.name;
  }
  EXPECT_EQ(shuffles, (std::set<std::string>{"__shfl", "__shfl_down", "__shfl_down_sync", "__shfl_sync", "__shfl_up",
                                             "__shfl_up_sync", "__shfl_xor", "__shfl_xor_sync"}));
  EXPECT_EQ(masks, (std::set<std::string>{"__activemask", "__ballot", "__ballot_sync", "__match_all_sync",
                                          "__match_any_sync"}));
  EXPECT_EQ(FindWarpIntrinsicSpelling("__shfl_down")->op, WarpOp::kShuffleDown);
  EXPECT_EQ(FindWarpIntrinsicSpelling("__shfl_xor_sync")->group_member, "shfl_xor");
  EXPECT_EQ(FindWarpIntrinsicSpelling("__syncwarp")->op, WarpOp::kSyncWarp);
  EXPECT_EQ(FindWarpIntrinsicSpelling("__ballot")->group_member, "ballot");
  EXPECT_EQ(FindWarpIntrinsicSpelling("__shfl_custom"), nullptr);
  EXPECT_EQ(FindWarpIntrinsicSpelling(""), nullptr);
}

}  // namespace
}  // namespace hipforge::translate
