// Mapping table: include files. One record per line.
// Data file (exempt from the file-length rule): facts from ROCm/HIPIFY's mapping data plus
// hipforge additions; regenerate docs/mappings with gen_mapping_docs after editing.
// One record per line is the format of a table, so clang-format leaves the file as written.
// clang-format off
#include "worker/translate/tables/library_tables.h"

namespace hipforge::translate {
namespace {

using enum ApiKind;
using enum ApiLibrary;
using enum SupportState;
using enum MappingFlag;

// hip_installed_name: checked in the toolchains' include trees: hipblas/, hipsparse/, hipsolver/ in HIP 5.7.1
// and 6.4.3, hipblaslt/ in 6.4.3 (sid's hipBLASLt 7.1.1 on HIP 6.4.3; 5.7.1 has no hipBLASLt), none of them at
// the top level; hip/hiprtc.h in 5.2.3, 5.7.1 and 6.4.3.
constexpr ApiMapping kRecords[] = {
    {.cuda_name = "cuda.h", .hip_name = "hip/hip_runtime.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    {.cuda_name = "cuda_runtime.h", .hip_name = "hip/hip_runtime.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    {.cuda_name = "device_launch_parameters.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kDropInclude)},
    {.cuda_name = "cuda_runtime_api.h", .hip_name = "hip/hip_runtime_api.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "channel_descriptor.h", .hip_name = "hip/channel_descriptor.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "device_functions.h", .hip_name = "hip/device_functions.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "driver_types.h", .hip_name = "hip/driver_types.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "cuda_fp16.h", .hip_name = "hip/hip_fp16.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    // hipforge: checked in the toolchains' headers: hip_bf16.h in HIP 5.7.1 and 6.4.3 (not 5.2); hip_fp8.h with
    // CUDA's OCP types (__hip_fp8_e4m3, ...) in 6.4.3 only (5.7.1 has no hip_fp8.h).
    {.cuda_name = "cuda_bf16.h", .hip_name = "hip/hip_bf16.h", .kind = kHeader, .library = kHeaders, .cuda_introduced = {11, 0}, .hip_introduced = {5, 7}},
    {.cuda_name = "cuda_fp8.h", .hip_name = "hip/hip_fp8.h", .kind = kHeader, .library = kHeaders, .cuda_introduced = {11, 8}, .hip_introduced = {6, 4}},
    {.cuda_name = "cuda_texture_types.h", .hip_name = "hip/hip_texture_types.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "texture_fetch_functions.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kDropInclude)},
    {.cuda_name = "vector_types.h", .hip_name = "hip/hip_vector_types.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "cuda_profiler_api.h", .hip_name = "hip/hip_runtime_api.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "cooperative_groups.h", .hip_name = "hip/hip_cooperative_groups.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "library_types.h", .hip_name = "hip/library_types.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "math_constants.h", .hip_name = "hip/hip_math_constants.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .hip_introduced = {5, 5}},  // absent in 5.2.3, present in 5.7.1 and 6.4.3
    {.cuda_name = "cuComplex.h", .hip_name = "hip/hip_complex.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    {.cuda_name = "cublas.h", .hip_name = "hipblas.h", .roc_name = "rocblas.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipblas/hipblas.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cublas_v2.h", .hip_name = "hipblas.h", .roc_name = "rocblas.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader) | Bit(kMainHeaderV2), .hip_installed_name = "hipblas/hipblas.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cublas_api.h", .hip_name = "hipblas.h", .roc_name = "rocblas.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .hip_installed_name = "hipblas/hipblas.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cublasLt.h", .hip_name = "hipblaslt.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .hip_installed_name = "hipblaslt/hipblaslt.h", .hip_installed_since = {6, 4}},
    {.cuda_name = "curand.h", .hip_name = "hiprand/hiprand.h", .roc_name = "rocrand/rocrand.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    {.cuda_name = "curand_kernel.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_kernel.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_discrete.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_discrete.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_discrete2.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_discrete.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_globals.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_common.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_lognormal.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_log_normal.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_mrg32k3a.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_mrg32k3a.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_mtgp32.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_mtgp32.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_mtgp32_host.h", .hip_name = "hiprand/hiprand_mtgp32_host.h", .roc_name = "rocrand/rocrand_mtgp32.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_mtgp32_kernel.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_mtgp32.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_mtgp32dc_p_11213.h", .hip_name = "rocrand/rocrand_mtgp32_11213.h", .roc_name = "rocrand/rocrand_mtgp32_11213.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_normal.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_normal.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_normal_static.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_normal.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_philox4x32_x.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_philox4x32_10.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_poisson.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_poisson.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_precalc.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_xorwow_precomputed.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "curand_uniform.h", .hip_name = "hiprand/hiprand_kernel.h", .roc_name = "rocrand/rocrand_uniform.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "cudnn.h", .hip_name = "hipDNN.h", .roc_name = "miopen/miopen.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    {.cuda_name = "cufft.h", .hip_name = "hipfft/hipfft.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    {.cuda_name = "cufftXt.h", .hip_name = "hipfft/hipfftXt.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "cusparse.h", .hip_name = "hipsparse.h", .roc_name = "rocsparse.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsparse/hipsparse.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusparse_v2.h", .hip_name = "hipsparse.h", .roc_name = "rocsparse.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader) | Bit(kMainHeaderV2), .hip_installed_name = "hipsparse/hipsparse.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusolverDn.h", .hip_name = "hipsolver.h", .roc_name = "rocsolver/rocsolver.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsolver/hipsolver.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusolverMg.h", .hip_name = "hipsolver.h", .roc_name = "rocsolver/rocsolver.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsolver/hipsolver.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusolverRf.h", .hip_name = "hipsolver.h", .roc_name = "rocsolver/rocsolver.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsolver/hipsolver.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusolverSp.h", .hip_name = "hipsolver.h", .roc_name = "rocsolver/rocsolver.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsolver/hipsolver.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusolverSp_LOWLEVEL_PREVIEW.h", .hip_name = "hipsolver.h", .roc_name = "rocsolver/rocsolver.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsolver/hipsolver.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cusolver_common.h", .hip_name = "hipsolver.h", .roc_name = "rocsolver/rocsolver.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hipsolver/hipsolver.h", .hip_installed_since = {5, 7}},
    {.cuda_name = "cub/cub.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader)},
    // hipforge: CUB's own headers (HeCBench moe, ...): hipCUB's main header has them all.
    {.cuda_name = "cub/util_type.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/util_macro.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/util_debug.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/util_ptx.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/block/block_load.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/block/block_store.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/block/block_scan.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/block/block_reduce.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/block/block_radix_sort.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/warp/warp_reduce.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/warp/warp_scan.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/device/device_reduce.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/device/device_scan.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/device/device_radix_sort.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/device/device_select.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "cub/device/device_segmented_reduce.cuh", .hip_name = "hipcub/hipcub.hpp", .kind = kHeader, .library = kHeaders, .flags = Bit(kMainHeader)},
    {.cuda_name = "caffe2/core/common_gpu.h", .hip_name = "caffe2/core/hip/common_gpu.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/core/context_gpu.h", .hip_name = "caffe2/core/hip/context_gpu.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/operators/operator_fallback_gpu.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/operators/spatial_batch_norm_op.h", .hip_name = "caffe2/operators/hip/spatial_batch_norm_op_miopen.hip", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "caffe2/operators/generate_proposals_op_util_nms_gpu.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/operators/max_pool_with_index_gpu.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/operators/rnn/recurrent_network_executor_gpu.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/utils/math/reduce.cuh", .hip_name = "caffe2/utils/math/hip/reduce.cuh", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/operators/gather_op.cuh", .hip_name = "caffe2/operators/math/gather_op.cuh", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "caffe2/core/common_cudnn.h", .hip_name = "caffe2/core/hip/common_miopen.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "nvrtc.h", .hip_name = "hiprtc.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kMainHeader), .hip_installed_name = "hip/hiprtc.h", .hip_installed_since = {5, 2}},
    {.cuda_name = "nccl.h", .hip_name = "rccl/rccl.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "cutensor.h", .hip_name = "hiptensor/hiptensor.hpp", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .hip_introduced = {5, 7}},
    {.cuda_name = "cutensor/types.h", .hip_name = "hiptensor/hiptensor_types.hpp", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .hip_introduced = {5, 7}},
    {.cuda_name = "cutensorMg.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    // hipforge additions, found on real code:
    // the device-side runtime API comes with hip_runtime.h; the cooperative-groups sub-headers live in the one
    // HIP header (their unsupported functions, e.g. cooperative_groups::reduce, are reported where used);
    // NVTX ranges and marks map to roctx; libcu++, WMMA and NVML have no drop-in and stay with a warning.
    {.cuda_name = "cuda_device_runtime_api.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .flags = Bit(kDropInclude)},
    {.cuda_name = "cooperative_groups/reduce.h", .hip_name = "hip/hip_cooperative_groups.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cooperative_groups/scan.h", .hip_name = "hip/hip_cooperative_groups.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .cuda_introduced = {11, 6}},
    {.cuda_name = "cooperative_groups/memcpy_async.h", .hip_name = "hip/hip_cooperative_groups.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "nvToolsExt.h", .hip_name = "roctracer/roctx.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported},
    {.cuda_name = "nvtx3/nvToolsExt.h", .hip_name = "roctracer/roctx.h", .kind = kHeader, .library = kHeaders, .roc_state = kSupported, .cuda_introduced = {10, 0}},
    {.cuda_name = "nvml.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "mma.h", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported},
    {.cuda_name = "cuda/pipeline", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cuda/barrier", .kind = kHeader, .library = kHeaders, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
};

}  // namespace

std::span<const ApiMapping> HeadersTable() { return kRecords; }

}  // namespace hipforge::translate
