// A file that reaches __nv_bfloat16 only through cuBLAS keeps HIPIFY's hipBLAS type (hip_bfloat16, as HIPIFY's
// lit suite expects); with cuda_bf16.h included the type is hip_bf16.h's __hip_bfloat16 (cuda_bf16_fp8.cu).
// CHECK: #include <hipblas.h>
#include <cublas_v2.h>
// CHECK: void Fill(hipblasHandle_t handle, const hip_bfloat16* a, hip_bfloat16* c);
void Fill(cublasHandle_t handle, const __nv_bfloat16* a, __nv_bfloat16* c);
