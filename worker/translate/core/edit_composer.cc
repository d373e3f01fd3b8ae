#include "worker/translate/core/edit_composer.h"

#include <algorithm>

#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/token_pass.h"

namespace hipforge::translate {
namespace {

// Lower number wins when two edits disagree: structural rewrites are built from the renamed pieces.
enum Priority { kStructural = 0, kFact = 1, kExtra = 2, kToken = 3 };

struct RankedEdit {
  TextEdit edit;
  int priority;
};

bool Inside(const TextEdit& edit, ByteRange range) {
  return edit.offset >= range.begin && edit.offset + edit.length <= range.end &&
         !(edit.length == 0 && (edit.offset == range.begin || edit.offset == range.end));
}

class Composer {
 public:
  Composer(const ComposeInput& input, const TranslateOptions& options) : input_(input), options_(options) {
    token_edits_ = input.token_edits;
    // Stable: insertions at one offset keep the order the pass made them in (HIP_ENABLE_WARP_SYNC_BUILTINS before
    // the hip_runtime.h include at the top of a file; unordered, HeCBench rsmt got the include first and
    // "use of undeclared identifier '__any_sync'").
    std::stable_sort(token_edits_.begin(), token_edits_.end(),
                     [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
  }

  ComposedFile Run() {
    for (const LaunchSite& launch : input_.launches) ComposeLaunch(launch);
    for (const WarpCallSite& call : input_.warp_calls) {
      if (options_.target_hip_version < kHipWarpSyncIntroduced) {
        ComposeWarpCall(call);
      } else {
        WidenWarpMask(call);
      }
    }
    // Token renames inside an argument rewrite's range (a removed or replaced argument) are superseded.
    for (const TextEdit& edit : input_.fact_edits) {
      if (edit.length > 0) covered_.push_back({edit.offset, edit.offset + edit.length});
    }
    // Likewise inside an analyzer fix's range: the fix writes the HIP text itself (HB201 PTX, HB206 textures).
    for (const TextEdit& edit : input_.extra_edits) {
      if (edit.length > 0) covered_.push_back({edit.offset, edit.offset + edit.length});
    }
    std::vector<RankedEdit> all;
    for (auto& edit : structural_) all.push_back({edit, kStructural});
    for (const auto& edit : input_.fact_edits) all.push_back({edit, kFact});
    for (const auto& edit : input_.extra_edits) all.push_back({edit, kExtra});
    for (const auto& edit : token_edits_) {
      const bool covered =
          std::any_of(covered_.begin(), covered_.end(), [&](ByteRange range) { return Inside(edit, range); });
      if (!covered) all.push_back({edit, kToken});
    }
    Merge(std::move(all));
    result_.output = ApplyEdits(input_.content, result_.edits);
    CountChangedLines();
    return std::move(result_);
  }

 private:
  std::string_view Original(ByteRange range) const {
    return input_.content.substr(range.begin, range.end - range.begin);
  }

  // The range's text with the lexer renames inside it applied.
  std::string Renamed(ByteRange range) const {
    std::string text;
    uint32_t at = range.begin;
    for (const TextEdit& edit : token_edits_) {
      if (!Inside(edit, range) || edit.offset < at) continue;
      text.append(input_.content.substr(at, edit.offset - at));
      text.append(edit.replacement);
      at = edit.offset + edit.length;
    }
    text.append(input_.content.substr(at, range.end - at));
    return text;
  }

  void ComposeLaunch(const LaunchSite& launch) {
    if (!options_.hip_kernel_execution_syntax) {
      // Keep <<<>>>; only rejoin chevrons that were written apart (Clang does not accept `<< <`).
      if (launch.open_chevrons)
        structural_.push_back(
            {launch.open_chevrons->begin, launch.open_chevrons->end - launch.open_chevrons->begin, "<<<", "launch"});
      if (launch.close_chevrons)
        structural_.push_back(
            {launch.close_chevrons->begin, launch.close_chevrons->end - launch.close_chevrons->begin, ">>>", "launch"});
      if (launch.open_chevrons || launch.close_chevrons) result_.changed_by.insert("launch");
      return;
    }
    if (launch.config.size() < 2) return;
    std::string text = "hipLaunchKernelGGL(";
    const std::string callee = Renamed(launch.callee);
    text += launch.template_callee ? "HIP_KERNEL_NAME(" + callee + ")" : callee;
    for (size_t i = 0; i < 2; ++i) {
      const std::string dim = Renamed(launch.config[i]);
      text += ", ";
      text += dim.rfind("dim3", 0) == 0 ? dim : "dim3(" + dim + ")";
    }
    text += ", " + (launch.config.size() > 2 ? Renamed(launch.config[2]) : std::string("0"));
    text += ", " + (launch.config.size() > 3 ? Renamed(launch.config[3]) : std::string("0"));
    if (launch.args) text += ", " + Renamed(*launch.args);
    text += ")";
    structural_.push_back({launch.whole.begin, launch.whole.end - launch.whole.begin, text, "launch"});
    covered_.push_back(launch.whole);
    result_.stats.converted["launch"]++;
    result_.changed_by.insert("launch");
  }

  void ComposeWarpCall(const WarpCallSite& call) {
    const std::string_view maskless = MasklessWarpIntrinsic(call.name);
    if (maskless.empty()) return;
    // A shuffle's mask only promises which lanes take part: CUDA leaves reads from lanes outside it undefined, and
    // HIP's maskless shuffle reads any lane, so lanes in the mask get the same values. Dropping it is safe; a vote
    // (ballot/any/all) would count lanes outside the mask, so those stay with a person.
    if (!call.full_mask) {
      const bool shuffle = maskless.rfind("__shfl", 0) == 0;
      Finding finding;
      finding.rule_id = std::string(kRuleWarpMask);
      finding.severity = shuffle ? Severity::kNote : Severity::kWarning;
      finding.location = LocateOffset(input_.path, input_.content, call.callee.begin);
      finding.message = "'" + call.name + "' with mask '" + std::string(Original(call.mask)) +
                        "': HIP before 6.2 has only '" + std::string(maskless) +
                        (shuffle ? "'; the mask is dropped (lanes in it read the same values; reads from lanes "
                                   "outside it were undefined in CUDA)."
                                 : "', which works on the full wavefront; the mask is not provably full, so the "
                                   "call is left for a person.");
      if (!shuffle) finding.fix = "Restructure the code so all lanes take part, or target HIP 6.2+.";
      result_.findings.push_back(std::move(finding));
      if (!shuffle) {
        result_.stats.unsupported++;
        return;
      }
    }
    structural_.push_back({call.callee.begin, call.callee.end - call.callee.begin, std::string(maskless), "device"});
    structural_.push_back({call.mask.begin, call.next_arg - call.mask.begin, "", "device"});
    covered_.push_back({call.mask.begin, call.next_arg});
    result_.stats.converted["function"]++;
    result_.changed_by.insert("device");
  }

  // HIP 6.2+ static_asserts a 64-bit mask (a wavefront has up to 64 lanes): a provably full mask means every
  // lane; any other mask keeps its bits, widened.
  void WidenWarpMask(const WarpCallSite& call) {
    if (MasklessWarpIntrinsic(call.name).empty()) return;
    if (call.full_mask) {
      if (Original(call.mask) == kFullWaveMask) return;
      structural_.push_back({call.mask.begin, call.mask.end - call.mask.begin, std::string(kFullWaveMask), "device"});
      covered_.push_back(call.mask);
    } else {
      if (Original(call.mask).rfind("static_cast<unsigned long long>", 0) == 0) return;
      structural_.push_back({call.mask.begin, 0, "static_cast<unsigned long long>(", "device"});
      structural_.push_back({call.mask.end, 0, ")", "device"});
    }
    result_.changed_by.insert("device");
  }
  static constexpr std::string_view kFullWaveMask = "0xffffffffffffffffull";

  void Merge(std::vector<RankedEdit> all) {
    std::stable_sort(all.begin(), all.end(), [](const RankedEdit& a, const RankedEdit& b) {
      if (a.edit.offset != b.edit.offset) return a.edit.offset < b.edit.offset;
      if ((a.edit.length == 0) != (b.edit.length == 0)) return a.edit.length == 0;  // insertions first
      return a.priority < b.priority;
    });
    std::vector<RankedEdit> kept;
    uint32_t kept_end = 0;  // end of the furthest replacement kept so far
    for (RankedEdit& candidate : all) {
      const TextEdit& edit = candidate.edit;
      bool duplicate = false;
      for (auto it = kept.rbegin(); it != kept.rend() && it->edit.offset == edit.offset; ++it) {
        duplicate |= it->edit.length == edit.length && it->edit.replacement == edit.replacement;
      }
      if (duplicate) continue;
      if (edit.offset < kept_end) {
        Finding finding;
        finding.rule_id = std::string(kRuleEditConflict);
        finding.severity = Severity::kWarning;
        finding.location = LocateOffset(input_.path, input_.content, edit.offset);
        finding.message = "edit from '" + edit.origin + "' overlaps an earlier edit and was not applied.";
        result_.findings.push_back(std::move(finding));
        continue;
      }
      kept_end = std::max(kept_end, edit.offset + edit.length);
      kept.push_back(std::move(candidate));
    }
    for (auto& ranked : kept) {
      if (!ranked.edit.origin.empty()) result_.changed_by.insert(ranked.edit.origin);
      result_.edits.push_back(std::move(ranked.edit));
    }
  }

  void CountChangedLines() {
    std::set<uint32_t> lines;
    uint32_t line = 1;
    uint32_t at = 0;
    for (const TextEdit& edit : result_.edits) {
      for (; at < edit.offset && at < input_.content.size(); ++at) {
        if (input_.content[at] == '\n') ++line;
      }
      lines.insert(line);
      uint32_t end_line = line;
      for (uint32_t i = edit.offset; i < edit.offset + edit.length && i < input_.content.size(); ++i) {
        if (input_.content[i] == '\n') lines.insert(++end_line);
      }
    }
    result_.stats.lines_changed = static_cast<int>(lines.size());
  }

  const ComposeInput& input_;
  const TranslateOptions& options_;
  std::vector<TextEdit> token_edits_;
  std::vector<TextEdit> structural_;
  std::vector<ByteRange> covered_;  // token renames inside these were folded into a structural edit
  ComposedFile result_;
};

}  // namespace

ComposedFile ComposeAndApply(const ComposeInput& input, const TranslateOptions& options) {
  return Composer(input, options).Run();
}

std::string ApplyEdits(std::string_view content, const std::vector<TextEdit>& sorted_edits) {
  std::string output;
  output.reserve(content.size() + content.size() / 8);
  uint32_t at = 0;
  for (const TextEdit& edit : sorted_edits) {
    if (edit.offset < at || edit.offset > content.size()) continue;
    output.append(content.substr(at, edit.offset - at));
    output.append(edit.replacement);
    at = std::min<uint32_t>(edit.offset + edit.length, content.size());
  }
  output.append(content.substr(at));
  return output;
}

}  // namespace hipforge::translate
