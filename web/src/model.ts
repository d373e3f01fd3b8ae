// The dashboard's pure view model: wire JSON (docs/dashboard.md) -> what a page shows. No DOM, no fetches, so the
// browser test can check these rules directly (it bundles this file with esbuild).
import type { DashboardFinding, JobAnswer, JobEvent, JobWithSummary, PatchHunk, Report, RepositoryRow, TrendPoint } from './api-types';

const FINAL_STATES = new Set(['JOB_STATE_SUCCEEDED', 'JOB_STATE_FAILED', 'JOB_STATE_CANCELLED']);
const stateWord = (s: string | undefined) => (s ?? '').replace('JOB_STATE_', '').toLowerCase();

// ---- verdict: what a job proved (docs/report.md "Verdict") ------------------------------------------------

export interface VerdictView {
  level: string;         // translated_only | builds | behaviour_checked | failed | cancelled | pending
  headline: string;      // "builds", "behaviour checked on AMD gfx942", "failed: 2 tests failed"
  notProved: string[];   // what the job did not prove
  stored: boolean;       // from the report's verdict section (false: derived from the job's state)
}

// The report's verdict when the validate role wrote one; otherwise what the job's state allows to say
// (a translate-only job proved nothing beyond the translation, exactly as report::DecideVerdict says).
export function verdictOf(job: Pick<JobWithSummary, 'state' | 'error' | 'summary'>): VerdictView {
  const v = job?.summary?.verdict;
  if (v && v.level) {
    const headline = v.level === 'behaviour_checked' ? `behaviour checked on ${v.platform || 'a GPU'}`
      : v.level === 'failed' ? `failed: ${v.why || 'see the job'}`
      : v.level === 'translated_only' ? 'translated only' : v.level;
    return { level: v.level, headline, notProved: v.not_proved ?? [], stored: true };
  }
  const state = job?.state ?? '';
  if (state === 'JOB_STATE_FAILED') {
    return { level: 'failed', headline: `failed: ${job.error || 'the pipeline did not finish'}`, notProved: [], stored: false };
  }
  if (state === 'JOB_STATE_CANCELLED') return { level: 'cancelled', headline: 'cancelled: nothing proved', notProved: [], stored: false };
  if (!FINAL_STATES.has(state)) return { level: 'pending', headline: `not decided yet (${stateWord(state) || 'queued'})`, notProved: [], stored: false };
  return { level: 'translated_only', headline: 'translated only', notProved: ['no build was made (translation only)'], stored: false };
}

// ---- gate definition ----------------------------------------------------------------------------------------

// Where a gate's definition came from (docs/dashboard.md, "definition.source"), in words a lead can act on.
export function gateSourceWords(source: Report.GateDefinition['source']): string {
  if (source === 'repository') return "the repository's hipforge.yaml (gate:)";
  if (source === 'team') return "the team's definition (migrate-server gate set)";
  return 'the default (every condition)';
}

// ---- live progress ------------------------------------------------------------------------------------------

// One readable line per JobEvent, worded as `migrate-cli watch` prints it (client/lib/progress_display.cc), with
// the event's time in front. Protobuf's JSON mapping leaves out empty strings and zeros, so every field may be
// missing: nothing here prints "undefined".
export function progressLine(kind: string, e: JobEvent): string {
  const time = typeof e?.time === 'string' ? e.time.slice(11, 19) + ' ' : '';
  if (e?.state_change) {
    const { from, to, reason } = e.state_change;
    const fromWord = from && from !== 'JOB_STATE_UNSPECIFIED' ? `${stateWord(from)} → ` : '';
    return `${time}state: ${fromWord}${stateWord(to) || 'unspecified'}${reason ? ` (${reason})` : ''}`;
  }
  if (e?.file_progress) {
    const f = e.file_progress;
    // The translate stage counts translation units, the job's counters CUDA files: named, as migrate-cli says it.
    return `${time}translate unit ${f.done ?? 0}/${f.total ?? 0}${f.path ? ' ' + f.path : ''}${f.status ? ' ' + f.status : ''}`;
  }
  if (e?.step) {
    const s = e.step;
    return `${time}${s.kind || 'step'}${s.name ? ' ' + s.name : ''}: ${s.status || 'unspecified'}${s.detail ? ` (${s.detail})` : ''}`;
  }
  if (e?.log) return `${time}[${e.log.level || 'info'}] ${e.log.message ?? ''}`;
  return time + kind;
}

// ---- library kernels ----------------------------------------------------------------------------------------

// rocPRIM / Thrust / CUB / hipCUB kernels (demangled "void rocprim::detail::...<...>(...)" or mangled
// "_ZN7rocprim..."): the library's, not the project's. A project kernel that takes thrust::complex stays the project's.
export function libraryOf(name: string): string | null {
  const names: Record<string, string> = { rocprim: 'rocPRIM', thrust: 'Thrust', cub: 'CUB', hipcub: 'hipCUB', rocthrust: 'Thrust' };
  const mangled = /^_ZN?K?\d+(rocprim|thrust|hipcub|cub|rocthrust)\d/.exec(name);
  if (mangled) return names[mangled[1]];
  const qualified = name.split(/[<(]/)[0].trim().split(/\s+/).pop() ?? '';
  const demangled = /^(?:::)?(rocprim|thrust|hipcub|cub|rocthrust)::/.exec(qualified);
  return demangled ? names[demangled[1]] : null;
}

// ---- one short context per finding --------------------------------------------------------------------------

export interface ContextLine { kind: 'ctx' | 'del' | 'add'; text: string; number: number; at: boolean }

// The lines of the HIP patch around `line` (old-side numbering, as findings use): at most `radius` CUDA lines
// either side and the HIP lines that replace them; null when no hunk covers the line (the translation left it).
export function contextAround(hunks: PatchHunk[] | undefined, line: number, radius = 2): ContextLine[] | null {
  for (const hunk of hunks ?? []) {
    if (!(line >= hunk.old_start && line < hunk.old_start + Math.max(hunk.old_lines, 1))) continue;
    let old = hunk.old_start, added = hunk.new_start;
    const out: ContextLine[] = [];
    for (const text of hunk.lines) {
      const tag = text[0];
      if (tag === '\\') continue;
      // An added line sits between the old line before it and the next one.
      const position = tag === '+' ? old - 0.5 : old;
      if (Math.abs(position - line) <= radius) {
        out.push({ kind: tag === '-' ? 'del' : tag === '+' ? 'add' : 'ctx', text: text.slice(1),
                   number: tag === '+' ? added : old, at: tag !== '+' && old === line });
      }
      if (tag !== '+') ++old;
      if (tag !== '-') ++added;
    }
    return out.slice(0, 12);
  }
  return null;
}

// ---- open work first ----------------------------------------------------------------------------------------

// `inactive`: also list the findings in code the build does not compile (never open; hidden by default).
export interface FindingFilters { open: boolean; severity?: string; rule?: string; path?: string; change?: string; inactive?: boolean }

export interface Bucket { key: string; title: string; params: Record<string, string> }

// Errors a person must fix, then warnings that may compute wrong, then notes, then what the translation fixed:
// each bucket is one server-side filter, so every bucket pages on its own and the order costs nothing. Findings in
// code the build does not compile are never open work: kept out of every bucket, listed last on their own when asked.
export function bucketsFor(filters: FindingFilters): Bucket[] {
  const all: Bucket[] = ([
    { key: 'open-error', title: 'Errors needing a person (will not build or run on AMD)', params: { auto_fixed: 'false', severity: 'error' } },
    { key: 'open-warning', title: 'Warnings needing a person (may compute wrong on AMD)', params: { auto_fixed: 'false', severity: 'warning' } },
    { key: 'open-note', title: 'Notes needing a person (performance)', params: { auto_fixed: 'false', severity: 'note' } },
    { key: 'fixed', title: 'Fixed automatically by the translation', params: { auto_fixed: 'true' } },
  ] as Bucket[]).map((b) => ({ ...b, params: { ...b.params, inactive: 'false' } }));
  if (filters.inactive) {
    all.push({ key: 'inactive', title: 'In code the build does not compile (inactive: listed, never open)', params: { inactive: 'true' } });
  }
  const extra: Record<string, string> = {};
  if (filters.rule) extra.rule = filters.rule;
  if (filters.path) extra.path = filters.path;
  if (filters.change && filters.change !== 'all') extra.change = filters.change;
  return all
    .filter((b) => !(filters.open && b.key === 'fixed'))
    .filter((b) => !filters.severity || !b.params.severity || b.params.severity === filters.severity)
    .map((b) => ({ ...b, params: { ...b.params, ...(filters.severity ? { severity: filters.severity } : {}), ...extra } }));
}

export function filtersFromQuery(query: URLSearchParams): FindingFilters {
  return { open: query.get('open') === '1', severity: query.get('severity') || undefined, rule: query.get('rule') || undefined,
           path: query.get('path') || undefined, change: query.get('change') || undefined, inactive: query.get('inactive') === '1' };
}

export function filtersToQuery(f: FindingFilters): string {
  const q = new URLSearchParams();
  if (f.open) q.set('open', '1');
  if (f.inactive) q.set('inactive', '1');
  for (const key of ['severity', 'rule', 'path', 'change'] as const) if (f[key] && f[key] !== 'all') q.set(key, f[key]!);
  return q.toString() ? '?' + q : '';
}

// ---- compare ------------------------------------------------------------------------------------------------

// How a listed finding relates to the compared job: a list of fixed findings (the base's, gone in the head) is
// "fixed" whatever in_other says; otherwise in_other false is "new", true "unchanged", null no comparison.
export function changeLabel(listChange: string | undefined, finding: Pick<DashboardFinding, 'in_other'>): string | null {
  if (listChange === 'fixed') return 'fixed';
  if (finding.in_other === false) return 'new';
  if (finding.in_other === true) return 'unchanged';
  return null;
}

// ---- trends -------------------------------------------------------------------------------------------------

// An x-axis label: the job's date and time (UTC) and its commit when known, e.g. ["2026-12-04 19:10", "a1b2c3d"].
export function trendLabel(point: Pick<TrendPoint, 'created_at' | 'commit'>): string[] {
  const at = typeof point.created_at === 'string' ? point.created_at.slice(0, 16).replace('T', ' ') : '';
  return point.commit ? [at, String(point.commit).slice(0, 7)] : [at];
}

// ---- patch download -----------------------------------------------------------------------------------------

// One file's hunks (GET /jobs/{id}/patch?path=) as a unified diff `git apply` takes.
export function filePatch(path: string, hunks: PatchHunk[]): string {
  if (hunks.length === 0) return '';
  return [`--- a/${path}`, `+++ b/${path}`, ...hunks.flatMap((h) => [h.header, ...h.lines])].join('\n') + '\n';
}

// ---- downloads ----------------------------------------------------------------------------------------------

// The files of a job, served by the dashboard API (download/...) from the producers migrate-cli uses: the stored
// patch, translated tree and build log (migrate-cli fetch), SARIF and JUnit rendered as migrate-cli report renders them.
export function downloadsOf(job: Pick<JobAnswer, 'artifact_kinds' | 'translation'>): { what: string; label: string }[] {
  const kinds = job.artifact_kinds ?? [];
  const hasReport = Object.keys(job.translation ?? {}).length > 0;
  return [
    ...(kinds.includes('patch') ? [{ what: 'patch', label: 'patch (unified diff)' }] : []),
    ...(kinds.includes('translated_tree') ? [{ what: 'tree', label: 'translated tree (tar)' }] : []),
    ...(hasReport ? [{ what: 'sarif', label: 'SARIF' }, { what: 'junit', label: 'JUnit XML' }] : []),
    ...(kinds.includes('build_log') ? [{ what: 'build-log', label: 'build log' }] : []),
  ];
}

// ---- portfolio ----------------------------------------------------------------------------------------------

export interface TrendView { direction: 'better' | 'worse' | 'same' | 'first'; arrow: string; why: string }

const GATE_RANK: Record<string, number> = { failed: 0, not_validated: 1, not_proved: 1, passed: 3 };
// A gate's rank; 2 (between nothing proved and passed) for a job without a gate.
const gateRank = (status: string | undefined) => GATE_RANK[String(status)] ?? 2;

// Is a repository getting better: its latest finished job against the finished job before it. Open work (errors
// needing a person plus warnings that may compute wrong) decides; with the same open work, the gate does.
export function trendOf(latest: JobWithSummary | null, previous: JobWithSummary | null): TrendView {
  if (!latest) return { direction: 'first', arrow: '·', why: 'no finished job yet' };
  if (!previous) return { direction: 'first', arrow: '·', why: 'first finished job: nothing to compare with' };
  const s = latest.summary, p = previous.summary;
  const open = (x: JobWithSummary['summary']) => (x.open_errors ?? 0) + (x.open_warnings ?? 0);
  const why = `since ${String(previous.id).slice(0, 8)}: open errors ${p.open_errors ?? 0} → ${s.open_errors ?? 0}, ` +
    `may-compute-wrong warnings ${p.open_warnings ?? 0} → ${s.open_warnings ?? 0}, gate ${p.gate?.status} → ${s.gate?.status}`;
  const delta = open(s) - open(p) || gateRank(p.gate?.status) - gateRank(s.gate?.status);
  if (delta < 0) return { direction: 'better', arrow: '▲', why };
  if (delta > 0) return { direction: 'worse', arrow: '▼', why };
  return { direction: 'same', arrow: '▶', why };
}

// What needs work first: a failed gate, then one that proved nothing (not validated / not proved), then
// repositories without a finished job, then passed gates; within each, more open errors, then more open
// may-compute-wrong warnings, then a worsening trend; then by name.
export function portfolioOrder(repositories: RepositoryRow[]): RepositoryRow[] {
  const key = (r: RepositoryRow) => {
    const s = r.gate_job?.summary;
    const trend = { worse: 0, same: 1, first: 1, better: 2 }[trendOf(r.gate_job, r.previous_gate_job).direction];
    return [s ? gateRank(s.gate?.status) : 2, -(s?.open_errors ?? 0), -(s?.open_warnings ?? 0), trend];
  };
  return [...repositories].sort((a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; ++i) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return String(a.repository).localeCompare(String(b.repository));
  });
}
