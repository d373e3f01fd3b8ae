#pragma once
// The file system every Clang parse of a repository sees. Confined, it answers only inside the readable
// roots (the unpacked tree, the CUDA toolkit, Clang's resource dir, the shims and system headers): a hostile
// `#include "/etc/hostname"` or a symlink out of the tree then reads as a missing file, so no host file's
// contents can reach a diagnostic or a report. Unconfined (empty roots), it is the physical file system.
#include <string>
#include <vector>

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace hipforge::translate {

// A physical file system with its own working directory (parallel parses do not share the process's),
// restricted to `readable_roots` (absolute) when that is not empty.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> MakeParseFileSystem(const std::vector<std::string>& readable_roots);

}  // namespace hipforge::translate
