#pragma once
// "Is this identifier CUDA?" asked for three different reasons, answered here side by side so the three stay
// apart on purpose (issue 28). A file NAME's kind (.cu, .cuh, ...) is common/source_files.h's FileKindOf.
// tests/common/cuda_names_test.cc.
#include <string_view>

namespace hipforge {

// An identifier only CUDA code spells (cudaMalloc, CUDA_R_32F, cublasSgemm, ncclAllReduce, __nv_bfloat16,
// __shfl_down_sync, __syncwarp, nvcuda::, cooperative_groups, __CUDA_ARCH__): text with one needs the translator
// (UsesCuda). Kernel words HIP shares (__global__, threadIdx) are not.
bool IsCudaOnlyIdentifier(std::string_view word);

// The shape of a CUDA API name (cudaX, cuX, CUDA_X, CU_X, cublasX, CUFFT_X, ...; not CUDA_VERSION/CUDART_VERSION):
// a name of this shape that no mapping table knows is reported as unknown CUDA (TR008) and counted unconverted,
// unless the program declares it itself.
bool LooksLikeCudaApiName(std::string_view name);

// A name of the GPU kernel language that HIP spells as CUDA does but plain C/C++ lacks: `__`-names
// (__syncthreads, __device__) and the built-in variables (threadIdx, warpSize, ...); false for min, max, sqrtf.
// A file using a table name of this kind still needs the HIP runtime header.
bool IsGpuLanguageName(std::string_view name);

}  // namespace hipforge
