// HB503 golden input: environment variables read from C++.
#include <cstdlib>
#include <cstdio>

int main() {
  const char* devices = std::getenv("CUDA_VISIBLE_DEVICES");
  // Negative: an unrelated variable.
  const char* threads = std::getenv("OMP_NUM_THREADS");
  std::printf("%s %s\n", devices ? devices : "", threads ? threads : "");
  return 0;
}
