#include <cstdio>

#include "stencil.cuh"

int main() {
  const int status = RunStencil(1 << 20);
  std::printf("stencil: %s\n", status == 0 ? "ok" : "failed");
  return status;
}
