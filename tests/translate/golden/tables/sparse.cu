// cuSPARSE table: handle, matrix descriptor, index base; an API hipSPARSE lacks stays, with a located warning.
// CHECK: #include <hipsparse.h>
#include <cusparse.h>
int main() {
  // CHECK: hipsparseHandle_t handle;
  cusparseHandle_t handle;
  // CHECK: hipsparseCreate(&handle);
  cusparseCreate(&handle);
  // CHECK: hipsparseMatDescr_t descriptor;
  cusparseMatDescr_t descriptor;
  // CHECK: hipsparseCreateMatDescr(&descriptor);
  cusparseCreateMatDescr(&descriptor);
  // CHECK: hipsparseSetMatIndexBase(descriptor, HIPSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatIndexBase(descriptor, CUSPARSE_INDEX_BASE_ZERO);
  // STDERR: sparse.cu:[[@LINE+2]]:3: warning: 'cusparseLoggerSetFile' is unsupported in 'HIP'. [TR001]
  // CHECK: cusparseLoggerSetFile(stderr);
  cusparseLoggerSetFile(stderr);
  // CHECK: hipsparseDestroy(handle);
  cusparseDestroy(handle);
  return 0;
}
