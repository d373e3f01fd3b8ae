#include "worker/translate/repo/rewrite_cache.h"

#include <nlohmann/json.hpp>

namespace hipforge::translate {

std::string RewriteCache::Key(const std::string& rewriter_name, int rewriter_version, const std::string& fingerprint,
                              const std::string& relative_path, const std::string& content) {
  return CacheKey("build-file-rewrite", 1)
      .Add("rewriter", rewriter_name)
      .Add("rewriter-version", std::to_string(rewriter_version))
      .Add("fingerprint", fingerprint)
      .Add("path", relative_path)
      .Add("content", content)
      .Hex();
}

std::optional<RewriteResult> RewriteCache::Lookup(const std::string& key) const {
  const std::optional<std::string> text = cache_.Read(key, ".json");
  if (!text) return std::nullopt;
  // The output is stored raw beside the JSON: build files need not be UTF-8.
  std::optional<std::string> output = cache_.Read(key, ".out");
  if (!output) return std::nullopt;
  try {
    const nlohmann::json json = nlohmann::json::parse(*text);
    RewriteResult result;
    result.output = std::move(*output);
    result.changed_by = json.at("changed_by").get<std::set<std::string>>();
    result.changed_lines = json.at("changed_lines").get<std::set<uint32_t>>();
    for (const auto& note : json.at("notes")) {
      result.notes.push_back({note.at("origin").get<std::string>(), note.at("line").get<uint32_t>(),
                              note.at("message").get<std::string>(), note.at("left_for_person").get<bool>()});
    }
    result.generated_files = json.value("generated_files", std::map<std::string, std::string>{});
    return result;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a damaged entry is recomputed
  }
}

void RewriteCache::Store(const std::string& key, const RewriteResult& result) const {
  if (!cache_.enabled()) return;
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& note : result.notes) {
    notes.push_back({{"origin", note.origin},
                     {"line", note.line},
                     {"message", note.message},
                     {"left_for_person", note.left_for_person}});
  }
  const nlohmann::json json = {{"changed_by", result.changed_by},
                               {"changed_lines", result.changed_lines},
                               {"notes", notes},
                               {"generated_files", result.generated_files}};
  // The output first, then the entry that points at it: a concurrent reader (another process sharing the cache)
  // never sees half a file, nor an entry without its output.
  if (!cache_.Write(key, ".out", result.output).ok()) return;
  (void)cache_.Write(key, ".json", json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace hipforge::translate
