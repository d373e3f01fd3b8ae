// Host-only C++: CUDA flags must not reach it.
#include "scale.h"

#if defined(KERNELS_FLAG)
#error "CUDA flags reached a host C++ source"
#endif

const char* host_info() { return "host"; }
