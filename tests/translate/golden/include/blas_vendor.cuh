#pragma once
// A project's vendor header (ggml's vendors/cuda.h): the cuBLAS v2 API comes in here, not in the file that calls it.
#include <cublas_v2.h>
