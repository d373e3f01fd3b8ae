// hipforge-sandbox-exec -- COMMAND...: installs the validate sandbox's seccomp filter, then execs
// COMMAND (see seccomp_policy.h). Linked statically: it must start inside any sandbox root.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "worker/userbuild/seccomp_policy.h"

int main(int argc, char** argv) {
  int first = 1;
  if (first < argc && std::strcmp(argv[first], "--") == 0) ++first;
  if (first >= argc) {
    std::fputs("usage: hipforge-sandbox-exec -- COMMAND [ARGS...]\n", stderr);
    return 125;
  }
  if (const std::string error = hipforge::validate::InstallSandboxSeccompFilter(); !error.empty()) {
    std::fprintf(stderr, "hipforge-sandbox-exec: %s\n", error.c_str());
    return 125;
  }
  ::execvp(argv[first], argv + first);
  std::fprintf(stderr, "hipforge-sandbox-exec: cannot run %s: %s\n", argv[first], std::strerror(errno));
  return 127;
}
