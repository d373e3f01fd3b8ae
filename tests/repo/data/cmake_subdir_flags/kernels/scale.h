#pragma once
void scale_on_device(float* data, int n);
const char* host_info();
