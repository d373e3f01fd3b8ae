// cuDNN table (hipDNN names by default): handle, tensor descriptor, data type and layout; an API with no
// equivalent stays, with a located warning.
// CHECK: #include <hipDNN.h>
#include <cudnn.h>
int main() {
  // CHECK: hipdnnHandle_t handle;
  cudnnHandle_t handle;
  // CHECK: hipdnnCreate(&handle);
  cudnnCreate(&handle);
  // CHECK: hipdnnTensorDescriptor_t tensor;
  cudnnTensorDescriptor_t tensor;
  // CHECK: hipdnnCreateTensorDescriptor(&tensor);
  cudnnCreateTensorDescriptor(&tensor);
  // CHECK: hipdnnSetTensor4dDescriptor(tensor, HIPDNN_TENSOR_NCHW, HIPDNN_DATA_FLOAT, 1, 3, 8, 8);
  cudnnSetTensor4dDescriptor(tensor, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 3, 8, 8);
  // STDERR: dnn.cu:[[@LINE+2]]:20: warning: 'cudnnGetCudartVersion' is unsupported in 'HIP'. [TR001]
  // CHECK: size_t runtime = cudnnGetCudartVersion();
  size_t runtime = cudnnGetCudartVersion();
  // CHECK: hipdnnDestroy(handle);
  cudnnDestroy(handle);
  return runtime > 0 ? 0 : 1;
}
