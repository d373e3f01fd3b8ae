#pragma once
// Maps nvcc command-line flags to hipcc/clang flags with the table in build_tables.h.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate {

struct FlagNote {
  std::string message;
  bool left_for_person = false;
};

struct FlagMapResult {
  std::vector<std::string> flags;
  // per_word[i]: what input word i became (empty when dropped or consumed as the value of the word before it).
  std::vector<std::vector<std::string>> per_word;
  std::vector<bool> consumed;  // consumed[i]: word i was the value of the flag before it
  std::vector<FlagNote> notes;
  bool changed = false;
};

struct FlagMapOptions {
  std::vector<std::string> architectures;  // --offload-arch values
  bool nvcc_context = true;                // false: only flags that cannot be host-compiler flags are rewritten
  // false: -rdc=true/--relocatable-device-code=true are dropped and -dc becomes -c, with a note (the repository
  // has no device code referenced across files; see RewriteContext::relocatable_device_code_needed).
  bool relocatable_device_code = true;
  // Makefile variables that hold AMD architectures after the pass (their sm_XX values were rewritten):
  // `-arch=$(ARCH)` becomes `$(ARCH:%=--offload-arch=%)`, one flag per entry, so `make ARCH=gfx942` still works.
  std::set<std::string> arch_variables;
  // false: no source of the repository uses cuBLASLt, so -lcublasLt is dropped rather than mapped: hipBLASLt is a
  // package of its own (Debian bookworm has none), and CUDA projects often link cuBLASLt beside cuBLAS unused.
  bool cublaslt_used = true;
};

// The note for a dropped -rdc=true / CUDA_SEPARABLE_COMPILATION.
extern const char kRelocatableDeviceCodeNotNeeded[];

// `flags` are single words (quotes already removed by the caller where they grouped words).
// Library flags (-lcudart, -lcublas, ...) are mapped too. The --offload-arch list is emitted once per call.
FlagMapResult MapNvccFlags(const std::vector<std::string>& flags, const FlagMapOptions& options);

// The flags an nvcc -gencode/-arch was replaced by: "--offload-arch=gfx90a --offload-arch=gfx942".
std::vector<std::string> OffloadArchFlags(const std::vector<std::string>& architectures);

// NAME when `word` is exactly a make variable reference, $(NAME) or ${NAME}.
std::optional<std::string> MakeVariableReference(const std::string& word);

// True if `word` is an nvcc flag whose value is the next word (`-Xcompiler`, `-gencode`, `-ccbin`, ...).
bool NvccFlagTakesNextWord(const std::string& word, bool nvcc_context);

}  // namespace hipforge::translate
