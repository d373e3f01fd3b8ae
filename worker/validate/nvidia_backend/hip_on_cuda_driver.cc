#include "worker/validate/nvidia_backend/hip_on_cuda_driver.h"

#include <algorithm>
#include <iterator>

namespace hipforge::validate {
namespace {

// The driver functions HeCBench, the CUDA samples and HIP's own tests call, with HIP 6.4's signatures. Parameter
// names are HIP's; hipforge_from_cu converts CUresult (CUDA numbers the runtime codes after the driver codes).
constexpr std::string_view kFunctions = R"(
// HIP's driver API, typed as HIP 6.4 declares it (worker/validate/nvidia_backend/hip_on_cuda_driver.cc).
inline hipError_t hipInit(unsigned int flags) { return hipforge_from_cu(cuInit(flags)); }
inline hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) { return hipforge_from_cu(cuDeviceGet(device, ordinal)); }
inline hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device) {
  return hipforge_from_cu(cuDeviceGetName(name, len, device));
}
inline hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {
  // cuDeviceComputeCapability is deprecated (since CUDA 5.0, a warning in every build): the attributes say the same.
  CUresult result = cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  if (result == CUDA_SUCCESS) result = cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  return hipforge_from_cu(result);
}
inline hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  return hipforge_from_cu(cuDeviceTotalMem(bytes, device));
}
// HIP's error codes are the runtime's here (hipError_t is cudaError_t), whose numbers are the driver's.
inline hipError_t hipDrvGetErrorString(hipError_t hipError, const char** errorString) {
  return hipforge_from_cu(cuGetErrorString(static_cast<CUresult>(hipError), errorString));
}
inline hipError_t hipDrvGetErrorName(hipError_t hipError, const char** errorString) {
  return hipforge_from_cu(cuGetErrorName(static_cast<CUresult>(hipError), errorString));
}
inline hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
#if CUDA_VERSION >= 13000
  // CUDA 13's cuCtxCreate is cuCtxCreate_v4(ctx, params, flags, device); no parameters = the old call.
  return hipforge_from_cu(cuCtxCreate(ctx, nullptr, flags, device));
#else
  return hipforge_from_cu(cuCtxCreate(ctx, flags, device));
#endif
}
inline hipError_t hipCtxDestroy(hipCtx_t ctx) { return hipforge_from_cu(cuCtxDestroy(ctx)); }
inline hipError_t hipCtxPopCurrent(hipCtx_t* ctx) { return hipforge_from_cu(cuCtxPopCurrent(ctx)); }
inline hipError_t hipCtxPushCurrent(hipCtx_t ctx) { return hipforge_from_cu(cuCtxPushCurrent(ctx)); }
inline hipError_t hipCtxSetCurrent(hipCtx_t ctx) { return hipforge_from_cu(cuCtxSetCurrent(ctx)); }
inline hipError_t hipCtxGetCurrent(hipCtx_t* ctx) { return hipforge_from_cu(cuCtxGetCurrent(ctx)); }
inline hipError_t hipCtxGetDevice(hipDevice_t* device) { return hipforge_from_cu(cuCtxGetDevice(device)); }
inline hipError_t hipCtxSynchronize(void) { return hipforge_from_cu(cuCtxSynchronize()); }
inline hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int* apiVersion) {
  unsigned int version = 0;  // CUDA's is unsigned
  const CUresult result = cuCtxGetApiVersion(ctx, &version);
  if (apiVersion) *apiVersion = static_cast<int>(version);
  return hipforge_from_cu(result);
}
inline hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* pctx, hipDevice_t dev) {
  return hipforge_from_cu(cuDevicePrimaryCtxRetain(pctx, dev));
}
inline hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) { return hipforge_from_cu(cuDevicePrimaryCtxRelease(dev)); }
inline hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  return hipforge_from_cu(cuModuleLoad(module, fname));
}
inline hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  return hipforge_from_cu(cuModuleLoadData(module, image));
}
inline hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int numOptions,
                                      hipJitOption* options, void** optionValues) {
  return hipforge_from_cu(cuModuleLoadDataEx(module, image, numOptions, options, optionValues));
}
inline hipError_t hipModuleUnload(hipModule_t module) { return hipforge_from_cu(cuModuleUnload(module)); }
inline hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname) {
  return hipforge_from_cu(cuModuleGetFunction(function, module, kname));
}
inline hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod, const char* name) {
  return hipforge_from_cu(cuModuleGetGlobal(dptr, bytes, hmod, name));
}
inline hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                       unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                       unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                       void** kernelParams, void** extra) {
  return hipforge_from_cu(cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                                         sharedMemBytes, stream, kernelParams, extra));
}
inline hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                                  unsigned int gridDimZ, unsigned int blockDimX,
                                                  unsigned int blockDimY, unsigned int blockDimZ,
                                                  unsigned int sharedMemBytes, hipStream_t stream,
                                                  void** kernelParams) {
  return hipforge_from_cu(cuLaunchCooperativeKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                                                    sharedMemBytes, stream, kernelParams));
}
inline hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc) {
  return hipforge_from_cu(cuFuncGetAttribute(value, attrib, hfunc));
}
inline hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, hipFunction_t f, int blockSize,
                                                                     size_t dynSharedMemPerBlk) {
  return hipforge_from_cu(cuOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk));
}
inline hipError_t hipMemAllocHost(void** ptr, size_t size) { return hipforge_from_cu(cuMemAllocHost(ptr, size)); }
inline hipError_t hipMemAllocPitch(hipDeviceptr_t* dptr, size_t* pitch, size_t widthInBytes, size_t height,
                                   unsigned int elementSizeBytes) {
  return hipforge_from_cu(cuMemAllocPitch(dptr, pitch, widthInBytes, height, elementSizeBytes));
}
inline hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr) {
  return hipforge_from_cu(cuMemGetAddressRange(pbase, psize, dptr));
}
inline hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t sizeBytes) {
  return hipforge_from_cu(cuMemcpyHtoD(dst, src, sizeBytes));
}
inline hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes) {
  return hipforge_from_cu(cuMemcpyDtoH(dst, src, sizeBytes));
}
inline hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes) {
  return hipforge_from_cu(cuMemcpyDtoD(dst, src, sizeBytes));
}
inline hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t sizeBytes, hipStream_t stream) {
  return hipforge_from_cu(cuMemcpyHtoDAsync(dst, src, sizeBytes, stream));
}
inline hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream) {
  return hipforge_from_cu(cuMemcpyDtoHAsync(dst, src, sizeBytes, stream));
}
inline hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream) {
  return hipforge_from_cu(cuMemcpyDtoDAsync(dst, src, sizeBytes, stream));
}
inline hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count) {
  return hipforge_from_cu(cuMemsetD8(dest, value, count));
}
inline hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count) {
  return hipforge_from_cu(cuMemsetD16(dest, value, count));
}
inline hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count) {
  return hipforge_from_cu(cuMemsetD32(dest, static_cast<unsigned int>(value), count));
}
inline hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream = 0) {
  return hipforge_from_cu(cuMemsetD8Async(dest, value, count, stream));
}
inline hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count, hipStream_t stream = 0) {
  return hipforge_from_cu(cuMemsetD16Async(dest, value, count, stream));
}
inline hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream = 0) {
  return hipforge_from_cu(cuMemsetD32Async(dst, static_cast<unsigned int>(value), count, stream));
}
// Attributes only the driver has (CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED has no cudaDevAttr):
// HIP asks for every attribute with hipDeviceGetAttribute, the runtime call here, so the driver's go to the driver.
inline cudaError_t cudaDeviceGetAttribute(int* value, CUdevice_attribute attr, int device) {
  return hipforge_from_cu(cuDeviceGetAttribute(value, attr, device));
}
// Virtual memory management (ggml's VMM pool). HIP has one hipMemLocation/hipMemAccessDesc for memory pools (the
// runtime's types here) and for these driver calls, so hipMemAllocationProp is CUDA's struct with the runtime's
// member types: same layout and enum values as the driver's (checked below), converted at the call.
struct hipMemAllocationProp {
  cudaMemAllocationType type;
  union {
    cudaMemAllocationHandleType requestedHandleType;
    cudaMemAllocationHandleType requestedHandleTypes;
  };
  cudaMemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
};
static_assert(sizeof(hipMemAllocationProp) == sizeof(CUmemAllocationProp), "hipMemAllocationProp layout");
static_assert(sizeof(cudaMemAccessDesc) == sizeof(CUmemAccessDesc), "hipMemAccessDesc layout");
inline const CUmemAllocationProp* hipforge_cu_prop(const hipMemAllocationProp* prop) {
  return reinterpret_cast<const CUmemAllocationProp*>(prop);
}
inline hipError_t hipMemCreate(hipMemGenericAllocationHandle_t* handle, size_t size, const hipMemAllocationProp* prop,
                               unsigned long long flags) {
  return hipforge_from_cu(cuMemCreate(handle, size, hipforge_cu_prop(prop), flags));
}
inline hipError_t hipMemGetAllocationGranularity(size_t* granularity, const hipMemAllocationProp* prop,
                                                 hipMemAllocationGranularity_flags option) {
  return hipforge_from_cu(cuMemGetAllocationGranularity(granularity, hipforge_cu_prop(prop), option));
}
inline hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp* prop,
                                                          hipMemGenericAllocationHandle_t handle) {
  return hipforge_from_cu(cuMemGetAllocationPropertiesFromHandle(reinterpret_cast<CUmemAllocationProp*>(prop), handle));
}
// HIP takes addresses as void*; code translated from CUDA keeps CUDA's integer (hipDeviceptr_t is CUdeviceptr here,
// as in HIP's nvidia_detail): each call comes in both spellings.
inline hipError_t hipMemAddressReserve(hipDeviceptr_t* ptr, size_t size, size_t alignment, hipDeviceptr_t addr,
                                       unsigned long long flags) {
  return hipforge_from_cu(cuMemAddressReserve(ptr, size, alignment, addr, flags));
}
inline hipError_t hipMemAddressReserve(void** ptr, size_t size, size_t alignment, void* addr, unsigned long long flags) {
  return hipMemAddressReserve(reinterpret_cast<hipDeviceptr_t*>(ptr), size, alignment,
                              reinterpret_cast<hipDeviceptr_t>(addr), flags);
}
inline hipError_t hipMemAddressFree(hipDeviceptr_t devPtr, size_t size) {
  return hipforge_from_cu(cuMemAddressFree(devPtr, size));
}
inline hipError_t hipMemAddressFree(void* devPtr, size_t size) {
  return hipMemAddressFree(reinterpret_cast<hipDeviceptr_t>(devPtr), size);
}
inline hipError_t hipMemMap(hipDeviceptr_t ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                            unsigned long long flags) {
  return hipforge_from_cu(cuMemMap(ptr, size, offset, handle, flags));
}
inline hipError_t hipMemMap(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                            unsigned long long flags) {
  return hipMemMap(reinterpret_cast<hipDeviceptr_t>(ptr), size, offset, handle, flags);
}
inline hipError_t hipMemUnmap(hipDeviceptr_t ptr, size_t size) { return hipforge_from_cu(cuMemUnmap(ptr, size)); }
inline hipError_t hipMemUnmap(void* ptr, size_t size) { return hipMemUnmap(reinterpret_cast<hipDeviceptr_t>(ptr), size); }
inline hipError_t hipMemSetAccess(hipDeviceptr_t ptr, size_t size, const hipMemAccessDesc* desc, size_t count) {
  return hipforge_from_cu(cuMemSetAccess(ptr, size, reinterpret_cast<const CUmemAccessDesc*>(desc), count));
}
inline hipError_t hipMemSetAccess(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count) {
  return hipMemSetAccess(reinterpret_cast<hipDeviceptr_t>(ptr), size, desc, count);
}
)";

// The names kFunctions defines (functions, and the one struct the virtual-memory calls need typed their way).
constexpr std::string_view kHandWritten[] = {
    "hipInit",
    "hipDeviceGet",
    "hipDeviceGetName",
    "hipDeviceComputeCapability",
    "hipDeviceTotalMem",
    "hipDrvGetErrorString",
    "hipDrvGetErrorName",
    "hipCtxCreate",
    "hipCtxDestroy",
    "hipCtxPopCurrent",
    "hipCtxPushCurrent",
    "hipCtxSetCurrent",
    "hipCtxGetCurrent",
    "hipCtxGetDevice",
    "hipCtxSynchronize",
    "hipCtxGetApiVersion",
    "hipDevicePrimaryCtxRetain",
    "hipDevicePrimaryCtxRelease",
    "hipModuleLoad",
    "hipModuleLoadData",
    "hipModuleLoadDataEx",
    "hipModuleUnload",
    "hipModuleGetFunction",
    "hipModuleGetGlobal",
    "hipModuleLaunchKernel",
    "hipModuleLaunchCooperativeKernel",
    "hipFuncGetAttribute",
    "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
    "hipMemAllocHost",
    "hipMemAllocPitch",
    "hipMemGetAddressRange",
    "hipMemcpyHtoD",
    "hipMemcpyDtoH",
    "hipMemcpyDtoD",
    "hipMemcpyHtoDAsync",
    "hipMemcpyDtoHAsync",
    "hipMemcpyDtoDAsync",
    "hipMemsetD8",
    "hipMemsetD16",
    "hipMemsetD32",
    "hipMemsetD8Async",
    "hipMemsetD16Async",
    "hipMemsetD32Async",
    "hipMemAllocationProp",
    "hipMemCreate",
    "hipMemGetAllocationGranularity",
    "hipMemGetAllocationPropertiesFromHandle",
    "hipMemAddressReserve",
    "hipMemAddressFree",
    "hipMemMap",
    "hipMemUnmap",
    "hipMemSetAccess",
};

// Checked against HIP 6.4's prototypes (the test above): a parameter is hipArray_t / hipMipmappedArray_t
// (cudaArray_t, not CUarray), a textureReference (gone in CUDA 12), a runtime enum or struct (hipFuncCache_t,
// hipMemAllocationHandleType, hipMemLocation, hipBatchMemOpNodeParams), a void* where CUDA takes CUdeviceptr
// (stream memory operations), a size_t where CUDA takes a callback (occupancy with a shared-memory function), or
// the result is hiprtcResult (hiprtcLink*), not hipError_t. Undefined, a use fails to compile naming the function,
// where a pass-through fails on an argument.
constexpr std::string_view kUndefined[] = {
    "hipArray3DCreate",
    "hipArray3DGetDescriptor",
    "hipArrayCreate",
    "hipArrayDestroy",
    "hipArrayGetDescriptor",
    "hipCtxGetCacheConfig",
    "hipCtxSetCacheConfig",
    "hipGraphAddBatchMemOpNode",
    "hipGraphBatchMemOpNodeGetParams",
    "hipGraphBatchMemOpNodeSetParams",
    "hipGraphExecBatchMemOpNodeSetParams",
    "hipMemExportToShareableHandle",
    "hipMemGetAccess",
    "hipMemImportFromShareableHandle",
    "hipMemcpyAtoA",
    "hipMemcpyAtoD",
    "hipMemcpyAtoH",
    "hipMemcpyAtoHAsync",
    "hipMemcpyDtoA",
    "hipMemcpyHtoA",
    "hipMemcpyHtoAAsync",
    "hipMipmappedArrayCreate",
    "hipMipmappedArrayDestroy",
    "hipMipmappedArrayGetLevel",
    "hipModuleGetTexRef",
    "hipModuleOccupancyMaxPotentialBlockSize",
    "hipModuleOccupancyMaxPotentialBlockSizeWithFlags",
    "hipStreamGetCaptureInfo_v2",
    "hipStreamWaitValue32",
    "hipStreamWaitValue64",
    "hipStreamWriteValue32",
    "hipStreamWriteValue64",
    "hipTexRefGetAddress",
    "hipTexRefGetAddressMode",
    "hipTexRefGetArray",
    "hipTexRefGetBorderColor",
    "hipTexRefGetFilterMode",
    "hipTexRefGetFlags",
    "hipTexRefGetFormat",
    "hipTexRefGetMaxAnisotropy",
    "hipTexRefGetMipMappedArray",
    "hipTexRefGetMipmapFilterMode",
    "hipTexRefGetMipmapLevelBias",
    "hipTexRefGetMipmapLevelClamp",
    "hipTexRefSetAddress",
    "hipTexRefSetAddress2D",
    "hipTexRefSetAddressMode",
    "hipTexRefSetArray",
    "hipTexRefSetBorderColor",
    "hipTexRefSetFilterMode",
    "hipTexRefSetFlags",
    "hipTexRefSetFormat",
    "hipTexRefSetMaxAnisotropy",
    "hipTexRefSetMipmapFilterMode",
    "hipTexRefSetMipmapLevelBias",
    "hipTexRefSetMipmapLevelClamp",
    "hipTexRefSetMipmappedArray",
    "hiprtcLinkAddData",
    "hiprtcLinkAddFile",
    "hiprtcLinkComplete",
    "hiprtcLinkCreate",
    "hiprtcLinkDestroy",
};

bool Contains(const auto& list, std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

}  // namespace

DriverWrapping HowToWrapDriverFunction(std::string_view hip_name) {
  if (Contains(kHandWritten, hip_name)) return DriverWrapping::kHandWritten;
  if (Contains(kUndefined, hip_name)) return DriverWrapping::kUndefined;
  return DriverWrapping::kPassThrough;
}

std::string_view HipOnCudaDriverFunctions() { return kFunctions; }

}  // namespace hipforge::validate
