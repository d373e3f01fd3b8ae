#pragma once
// A precompiled header of the CUDA prelude (Clang's CUDA runtime wrapper and the toolkit headers it pulls
// in), built once per distinct argument list and reused by every parse, in this process and later ones.
// Parsing those headers is most of the time a translation takes; loading the PCH is lazy and cheap.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hipforge::translate {

// The PCH for `args` (Clang arguments without the file) in `directory`, built when missing. nullopt when it
// cannot be built (for example without a CUDA toolkit there is little to precompile; callers parse normally).
std::optional<std::filesystem::path> EnsurePreludePch(const std::vector<std::string>& args,
                                                      const std::filesystem::path& directory);

// Whether a Clang error message says the PCH itself is unusable (stale or from another compiler build).
bool IsPchProblem(const std::string& first_error);

}  // namespace hipforge::translate
