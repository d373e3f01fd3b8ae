#include <cstdio>
#include <vector>

#include "vecops.h"

int main() {
  std::vector<float> a(1000, 1.0f), b(1000, 2.0f), c(1000);
  if (vecops_add(a.data(), b.data(), c.data(), 1000) != 0) return 1;
  if (vecops_scale(c.data(), 0.5f, 1000) != 0) return 1;
  float total = 0;
  if (vecops_sum(c.data(), 1000, &total) != 0) return 1;
  std::printf("%s: sum %.1f\n", vecops_version(), total);
  return 0;
}
