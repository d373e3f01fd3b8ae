// HB408 golden input: driver-API contexts, PTX modules and NVRTC PTX.
#include <cuda.h>
#include <nvrtc.h>
#include <string>

CUfunction load(const char* source) {
  nvrtcProgram program;
  nvrtcCreateProgram(&program, source, "k.cu", 0, nullptr, nullptr);
  const char* options[] = {"--gpu-architecture=compute_80"};
  nvrtcCompileProgram(program, 1, options);
  size_t size = 0;
  nvrtcGetPTXSize(program, &size);
  std::string ptx(size, '\0');
  nvrtcGetPTX(program, &ptx[0]);
  CUdevice device;
  cuDeviceGet(&device, 0);
  CUcontext context;
  cuCtxCreate(&context, 0, device);
  CUmodule module;
  cuModuleLoadData(&module, ptx.c_str());
  CUfunction function;
  cuModuleGetFunction(&function, module, "k");
  return function;
}
