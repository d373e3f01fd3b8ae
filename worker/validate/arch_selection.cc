#include "worker/validate/arch_selection.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace hipforge::validate {

namespace {

// The family is the processor without its last digit: gfx942 -> gfx94, gfx1101 -> gfx110.
std::string Family(const std::string& processor) { return processor.substr(0, processor.size() - 1); }

// gfx9 stepping digits are hex (gfx90a, gfx90c): compare by numeric value of the last digit.
int Stepping(const std::string& processor) {
  const char c = processor.back();
  return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : 10 + (std::tolower(c) - 'a');
}

}  // namespace

std::string TargetProcessor(const std::string& target) { return target.substr(0, target.find(':')); }

std::string TargetDirectoryName(const std::string& target) {
  std::string name = target;
  std::replace(name.begin(), name.end(), ':', '-');
  return name;
}

ArchChoice ChooseBuildArch(const std::string& requested, const std::vector<std::string>& toolchain_targets) {
  ArchChoice choice{.requested = requested};
  const std::string processor = TargetProcessor(requested);
  if (std::find(toolchain_targets.begin(), toolchain_targets.end(), processor) != toolchain_targets.end()) {
    choice.arch = requested;  // features kept: the toolchain takes the full target ID
    return choice;
  }
  // Nearest in the family: the highest stepping not above the requested one, else the lowest above.
  std::string best;
  for (const std::string& target : toolchain_targets) {
    if (target.size() != processor.size() || Family(target) != Family(processor)) continue;
    const bool below = Stepping(target) <= Stepping(processor);
    if (best.empty()) {
      best = target;
      continue;
    }
    const bool best_below = Stepping(best) <= Stepping(processor);
    if (below && (!best_below || Stepping(target) > Stepping(best))) best = target;
    if (!below && !best_below && Stepping(target) < Stepping(best)) best = target;
  }
  if (best.empty()) {
    choice.note = absl::StrCat(requested, " is not supported by this toolchain and no target of its family is");
    return choice;
  }
  choice.arch = best;
  choice.note = absl::StrCat(requested, " is not supported by this toolchain; built the nearest target ", best,
                             " instead (code objects for ", best, " do not load on ", processor, ")");
  return choice;
}

std::vector<std::string> ReachableArchs(const std::vector<std::string>& toolchain_targets) {
  static const char* const kJobArchs[] = {"gfx906",  "gfx908",  "gfx90a",  "gfx940",  "gfx941",  "gfx942", "gfx950",
                                          "gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201"};
  std::vector<std::string> reachable = toolchain_targets;
  for (const char* arch : kJobArchs) {
    if (std::find(reachable.begin(), reachable.end(), arch) != reachable.end()) continue;
    if (!ChooseBuildArch(arch, toolchain_targets).arch.empty()) reachable.emplace_back(arch);
  }
  return reachable;
}

}  // namespace hipforge::validate
