#pragma once
// Which offload arch to build when a job asks for one the toolchain lacks (Debian's clang 15 has
// gfx940 but not gfx942): the nearest target of the same family, labelled as such in the report.
#include <string>
#include <vector>

namespace hipforge::validate {

struct ArchChoice {
  std::string requested;
  std::string arch;  // empty when nothing suitable exists
  std::string note;  // set when arch != requested, or when nothing could be chosen
};

// A target ID's processor: "gfx90a:xnack+" -> gfx90a, "sm_90:wave64" -> sm_90.
std::string TargetProcessor(const std::string& target);

// A directory name for a target ID: make cannot build below a path with ':' ("target pattern contains no '%'",
// ggml's sm_90:wave64 build on the GPU host), so sm_90:wave64 -> sm_90-wave64, gfx90a:xnack+ -> gfx90a-xnack+.
std::string TargetDirectoryName(const std::string& target);

ArchChoice ChooseBuildArch(const std::string& requested, const std::vector<std::string>& toolchain_targets);

// `toolchain_targets` plus the AMD GPU archs jobs ask for (Instinct, recent Radeon) that ChooseBuildArch
// builds through a stand-in of the family: what a worker can take when no exact toolchain exists.
std::vector<std::string> ReachableArchs(const std::vector<std::string>& toolchain_targets);

}  // namespace hipforge::validate
