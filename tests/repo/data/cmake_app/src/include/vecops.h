#pragma once
// Host API of the vecops example library (plain C++: no CUDA types in the interface).
int vecops_add(const float* a, const float* b, float* c, int n);
int vecops_scale(float* x, float factor, int n);
int vecops_sum(const float* x, int n, float* result);
const char* vecops_version();
