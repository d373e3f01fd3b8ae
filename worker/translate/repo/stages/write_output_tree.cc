#include "worker/translate/repo/stages/write_output_tree.h"

#include <algorithm>
#include <regex>

#include "common/file_io.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/repo/text_edits.h"

namespace hipforge::translate {
namespace fs = std::filesystem;
namespace {

// `#include "kernels.cu"` follows its file when .cu files are renamed to .hip.
std::string UpdateRenamedIncludes(const std::string& path, const std::string& content,
                                  const std::map<std::string, std::string>& renamed) {
  if (renamed.empty() || content.find(".cu\"") == std::string::npos) return content;
  static const std::regex kInclude(R"((#\s*include\s*")([^"]+\.cu)("))");
  std::string out;
  size_t last = 0;
  const fs::path dir = fs::path(path).parent_path();
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kInclude); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += content.substr(last, static_cast<size_t>(m.position(0)) - last);
    last = static_cast<size_t>(m.position(0) + m.length(0));
    std::string target = m[2].str();
    for (const fs::path& candidate : {dir / target, fs::path(target)}) {
      if (renamed.count(candidate.lexically_normal().generic_string())) {
        target = target.substr(0, target.size() - 3) + ".hip";
        break;
      }
    }
    out += m[1].str() + target + m[3].str();
  }
  return out + content.substr(last);
}

}  // namespace

absl::Status WriteOutputTree(MigrationState& state, const MigrationTools&) {
  const fs::path& input = state.trees->input;
  const fs::path& output = state.trees->output;
  CollectedFiles& files = *state.files;
  const TranslationPlan& plan = *state.plan;
  const RewriteContext& context = plan.context;
  const ComposedTranslations& translations = *state.translations;
  const BuildFileRewrites& rewrites = *state.rewrites;
  MigrationResult& result = state.result;
  std::error_code error;
  fs::create_directories(output, error);
  if (error) return absl::InternalError("cannot create " + output.string() + ": " + error.message());
  int written = 0;
  for (const auto& [path, kind] : files.kinds) {
    const std::string& original = files.contents[path];
    FileSummary summary;
    summary.source_path = path;
    summary.path = context.renamed.count(path) ? context.renamed.at(path) : path;
    summary.kind = kind;
    std::string out = original;
    if (auto t = translations.by_path.find(path); t != translations.by_path.end()) {
      const FileTranslation& translation = t->second;
      out = translation.status == FileStatus::kFailed ? original : translation.output;
      summary.status = translation.status;
      summary.changed_by = translation.changed_by;
      summary.from_cache = translation.from_cache;
      for (const Finding& diagnostic : translation.diagnostics) {
        summary.left_for_person.push_back(diagnostic.rule_id + " line " + std::to_string(diagnostic.location.line) +
                                          ": " + diagnostic.message);
      }
      if (translation.status == FileStatus::kFailed) {
        summary.left_for_person.push_back("translation failed: " + translation.fallback_reason);
      }
    } else if (auto r = rewrites.by_path.find(path); r != rewrites.by_path.end()) {
      out = r->second.output;
      summary.changed_by = r->second.changed_by;
      summary.from_cache = rewrites.cached.count(path) > 0;
      for (const RewriteNote& note : r->second.notes) {
        if (note.left_for_person) {
          summary.left_for_person.push_back(note.origin + " line " + std::to_string(note.line) + ": " + note.message);
        }
      }
    } else if (plan.extension_sources.count(path)) {
      summary.left_for_person.push_back(
          "PyTorch extension source kept as CUDA: ROCm PyTorch hipifies it at build time");
    }
    if (IsTranslatableKind(kind) || kind == RepoFileKind::kOther) {
      const std::string updated = UpdateRenamedIncludes(path, out, context.renamed);
      if (updated != out) summary.changed_by.insert("rename");
      out = updated;
    }
    if (summary.path != summary.source_path) summary.changed_by.insert("rename");
    summary.lines_changed = CountChangedLines(original, out);
    if (summary.status != FileStatus::kFallback && summary.status != FileStatus::kFailed) {
      if (out != original || summary.path != summary.source_path) {
        summary.status = FileStatus::kTranslated;
      } else {
        summary.status = kind == RepoFileKind::kOther ? FileStatus::kCopied : FileStatus::kUnchanged;
      }
    }
    if (absl::Status status = WriteFileBytes(output / summary.path, out); !status.ok()) return status;
    fs::permissions(output / summary.path, fs::status(input / path).permissions(), error);
    result.files.push_back(std::move(summary));
    state.Report("write", ++written, static_cast<int>(files.kinds.size()), path);
  }
  // Files the rewriters generate (the CMake HIP module), unless the repository already has them.
  for (const auto& [path, rewrite] : rewrites.by_path) {
    for (const auto& [generated, text] : rewrite.generated_files) {
      if (files.kinds.count(generated) || std::any_of(result.files.begin(), result.files.end(),
                                                      [&](const FileSummary& f) { return f.path == generated; })) {
        continue;
      }
      if (absl::Status status = WriteFileBytes(output / generated, text); !status.ok()) return status;
      // No lines of the submitted code changed here (issue 26: the example's module counted as 118 "lines
      // changed"); "generated" in changed_by tells the file apart in every listing.
      result.files.push_back({.path = generated,
                              .source_path = "",
                              .kind = RepoFileKind::kCMake,
                              .status = FileStatus::kTranslated,
                              .changed_by = {kRuleCudaCmake, "generated"},
                              .lines_changed = 0});
    }
  }
  for (const auto& link : files.symlinks) {
    fs::create_directories((output / link).parent_path(), error);
    fs::copy_symlink(input / link, output / link, error);
    if (error) result.notes.push_back("symlink " + link + " not copied: " + error.message());
  }
  return absl::OkStatus();
}

}  // namespace hipforge::translate
