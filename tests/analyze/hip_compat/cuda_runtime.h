// Test stand-in for the CUDA runtime header when a fixed golden file is compiled with hipcc.
#pragma once
#include "cuda_to_hip52.h"
