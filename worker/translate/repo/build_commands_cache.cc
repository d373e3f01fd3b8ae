#include "common/file_io.h"
#include "worker/translate/repo/build_commands_cache.h"

#include <fstream>
#include <sstream>

#include "common/sha256.h"

namespace hipforge::translate {
namespace fs = std::filesystem;
namespace {

constexpr const char* kGeneration = "hipforge-build-discovery-1";

}  // namespace

std::string BuildDiscoveryKey(const std::map<std::string, std::string>& contents,
                              const std::map<std::string, RepoFileKind>& kinds, const BuildDiscoveryOptions& options) {
  std::string key = std::string(kGeneration) + "\n" + options.cuda_path.string() + "\n" +
                    ReadFileBytes(options.cuda_path / "version.json").value_or("") + "\n";
  for (const auto& option : options.cmake_options) key += "-D" + option + "\n";
  for (const auto& [path, content] : contents) {
    const auto kind = kinds.find(path);
    const bool source = kind != kinds.end() && IsSourceKind(kind->second);
    key += path + '\0' + (source ? std::string("source") : Sha256Hex(content)) + '\n';
  }
  return Sha256Hex(key);
}

std::optional<BuildDiscovery> BuildDiscoveryCache::Lookup(const std::string& key, const fs::path& scratch) const {
  if (directory_.empty()) return std::nullopt;
  const auto text = ReadFileBytes(directory_ / (key + ".json"));
  if (!text) return std::nullopt;
  const nlohmann::json entry = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!entry.is_object() || !entry.contains("commands") || !entry["commands"].is_array()) return std::nullopt;
  std::error_code error;
  fs::create_directories(scratch, error);
  const fs::path out = scratch / "compile_commands.json";
  std::ofstream(out) << entry["commands"].dump(1);
  if (error || !fs::exists(out)) return std::nullopt;
  BuildDiscovery discovery;
  discovery.compile_commands = out;
  discovery.tool = entry.value("tool", "");
  for (const auto& note : entry.value("notes", nlohmann::json::array())) discovery.notes.push_back(note.get<std::string>());
  discovery.notes.push_back("build commands from the cache (tree and build files unchanged since `" + discovery.tool +
                            "` ran)");
  return discovery;
}

void BuildDiscoveryCache::Store(const std::string& key, const BuildDiscovery& discovery) const {
  if (directory_.empty() || !discovery.compile_commands) return;
  const auto commands = ReadFileBytes(*discovery.compile_commands);
  if (!commands) return;
  nlohmann::json parsed = nlohmann::json::parse(*commands, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return;
  const nlohmann::json entry = {{"tool", discovery.tool}, {"notes", discovery.notes}, {"commands", std::move(parsed)}};
  std::error_code error;
  fs::create_directories(directory_, error);
  if (error) return;  // the cache is an optimisation; a read-only cache directory is not an error
  const fs::path path = directory_ / (key + ".json");
  (void)WriteFileAtomically(path, entry.dump());  // a unique temporary per process and thread, then rename
}

}  // namespace hipforge::translate
