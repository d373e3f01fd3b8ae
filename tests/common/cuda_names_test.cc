// common/cuda_names.h: the three "is this identifier CUDA" questions give different answers on purpose.
#include "common/cuda_names.h"

#include <gtest/gtest.h>

namespace hipforge {
namespace {

TEST(CudaNames, CudaOnlyIdentifiersMakeTextNeedTheTranslator) {
  for (const char* word : {"cudaMalloc", "CUDA_R_32F", "cublasSgemm", "ncclAllReduce", "__nv_bfloat16",
                           "__shfl_down_sync", "__syncwarp", "nvcuda", "cooperative_groups", "__CUDA_ARCH__"}) {
    EXPECT_TRUE(IsCudaOnlyIdentifier(word)) << word;
  }
  for (const char* word : {"__global__", "threadIdx", "cudart", "cuMemAlloc", "CU_DEVICE_ATTRIBUTE", "hipMalloc"}) {
    EXPECT_FALSE(IsCudaOnlyIdentifier(word)) << word;
  }
}

TEST(CudaNames, ApiNameShapeIsWiderButLeavesVersionMacrosOut) {
  for (const char* name :
       {"cudaMalloc", "cudaflag", "cuMemAlloc", "CU_DEVICE_ATTRIBUTE", "cublasCreate", "cutensorInit", "CUFFT_R2C"}) {
    EXPECT_TRUE(LooksLikeCudaApiName(name)) << name;
  }
  for (const char* name : {"CUDA_VERSION", "CUDART_VERSION", "cuda", "cu", "custom", "__shfl_down_sync", "hipFree"}) {
    EXPECT_FALSE(LooksLikeCudaApiName(name)) << name;
  }
}

TEST(CudaNames, GpuLanguageNamesAreSharedWithHipButNotWithCpp) {
  for (const char* name : {"__syncthreads", "__device__", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}) {
    EXPECT_TRUE(IsGpuLanguageName(name)) << name;
  }
  for (const char* name : {"min", "max", "sqrtf", "cudaMalloc"}) EXPECT_FALSE(IsGpuLanguageName(name)) << name;
}

}  // namespace
}  // namespace hipforge
