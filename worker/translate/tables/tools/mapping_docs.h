#pragma once
// Renders docs/mappings/*.md from the mapping tables. Shared by the gen_mapping_docs tool, which writes the
// files, and the docs-up-to-date test, which compares them with the committed ones.
#include <map>
#include <string>

#include "worker/translate/tables/mapping_index.h"

namespace hipforge::translate {

// File name (e.g. "runtime.md", "README.md") -> Markdown content. Deterministic: same tables, same bytes.
std::map<std::string, std::string> RenderMappingDocs(const MappingIndex& index);

}  // namespace hipforge::translate
