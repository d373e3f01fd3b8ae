#include <cstdio>
#include <vector>

int FillOnDevice(float* host, int n);

int main() {
  std::vector<float> x(64);
  const int status = FillOnDevice(x.data(), 64);
  std::printf("fill: %d\n", status);
  return status;
}
