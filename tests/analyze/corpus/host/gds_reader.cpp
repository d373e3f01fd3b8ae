// GPUDirect Storage read into device memory.
#include <cufile.h>
#include <cuda_runtime.h>
#include <fcntl.h>
#include <unistd.h>

ssize_t read_to_gpu(const char* path, void* device_buffer, size_t bytes) {
  int fd = open(path, O_RDONLY | O_DIRECT);
  CUfileDescr_t descr = {};
  descr.handle.fd = fd;
  descr.type = CU_FILE_HANDLE_TYPE_OPAQUE_FD;
  CUfileHandle_t handle;
  cuFileHandleRegister(&handle, &descr);
  cuFileBufRegister(device_buffer, bytes, 0);
  ssize_t got = cuFileRead(handle, device_buffer, bytes, 0, 0);
  cuFileBufDeregister(device_buffer);
  cuFileHandleDeregister(handle);
  close(fd);
  return got;
}
