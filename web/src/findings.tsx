// A job's findings (open work first, filters, one short context each) and the compare view of two jobs.
import { useEffect, useState } from 'preact/hooks';
import { get, saveFile, short } from './api';
import { bucketsFor, changeLabel, contextAround, filePatch, filtersToQuery, type FindingFilters } from './model';
import type { DashboardFinding, FindingsAnswer, PatchHunk, RuleCount } from './api-types';
import { Badge, Gate, Loading, VerdictBadge, link, useData } from './ui';

// One request per (job, file) for the patch hunks, however many findings the file has.
const patchCache = new Map<string, Promise<PatchHunk[]>>();
export function hunksOf(jobId: string, path: string): Promise<PatchHunk[]> {
  const key = `${jobId}\n${path}`;
  if (!patchCache.has(key)) patchCache.set(key, get(`jobs/${jobId}/patch`, { path }).then((p) => p.hunks, (): PatchHunk[] => []));
  return patchCache.get(key)!;
}

// The finding's own lines: the CUDA line and the HIP lines that replace it, two lines either side at most.
// `patchJob`: the job whose patch holds the finding's lines (null: a list of fixed findings without a compared job).
function Context({ finding, patchJob }: { finding: DashboardFinding; patchJob?: string | null }) {
  const [hunks, setHunks] = useState<PatchHunk[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    if (patchJob && finding.path) hunksOf(patchJob, finding.path).then((h) => live && setHunks(h));
    return () => { live = false; };
  }, [patchJob, finding.path]);
  const lines = contextAround(hunks, finding.line);
  if (lines && lines.length > 0) {
    return <pre class="context" data-testid="context">{lines.map((l) =>
      <span class={`${l.kind}${l.at ? ' at' : ''}`} data-testid={l.at ? 'context-at' : undefined}>
        <span class="ln">{l.number}</span>{l.kind === 'del' ? '-' : l.kind === 'add' ? '+' : ' '}{l.text + '\n'}</span>)}</pre>;
  }
  if (!finding.source_line) return null;
  return <div><code class="cuda" data-testid="cuda-line">{finding.source_line}</code>
    {hunks && <span class="muted small">line unchanged by the translation</span>}</div>;
}

function FindingItem({ f, listChange, patchJob, onPath }: {
  f: DashboardFinding; listChange?: string; patchJob?: string | null; onPath?: (p: string) => void;
}) {
  const change = changeLabel(listChange, f);
  const where = `${f.path || '(repository)'}${f.line ? `:${f.line}` : ''}`;
  return (
    <div class="finding" data-testid="finding" data-rule={f.rule_id} data-line={f.line} data-path={f.path}
         data-severity={f.severity} data-auto-fixed={String(f.auto_fixed)} data-inactive={String(!!f.inactive)} data-fingerprint={f.fingerprint}>
      <div class="finding-head">
        <Badge value={f.severity} />{' '}
        <span data-testid="fix-state" class={f.auto_fixed || f.inactive ? 'fix-state fixed' : 'fix-state open'}>
          {f.inactive ? 'inactive (not compiled)' : f.auto_fixed ? 'auto-fixed' : 'needs a person'}</span>
        {change && <> <Badge value={`change-${change}`} label={change} testid="change-badge" /></>}
        {' '}<a class="rule-id" href={link('rule', f.rule_id)}>{f.rule_id}</a>{' '}
        {onPath && f.path ? <a class="where" data-testid="finding-path" href="javascript:void 0" title="only this file"
                               onClick={(e) => { e.preventDefault(); onPath(f.path); }}>{where}</a>
          : <span class="where">{where}</span>}
        {' '}<span class="message">{f.message}</span>
      </div>
      {f.fix && <div class="muted small">fix: {f.fix}</div>}
      <Context finding={f} patchJob={patchJob} />
    </div>
  );
}

// One filter's findings, a page of 100 at a time. `listChange` says how the list relates to the compared job
// (a list of fixed findings holds the compared job's findings: their context comes from that job's patch).
export function FindingPages({ jobId, params, listChange, onLoaded, onPath, testid }: {
  jobId: string; params: Record<string, string>; listChange?: string; onLoaded?: (f: DashboardFinding[]) => void;
  onPath?: (p: string) => void; testid?: string;
}) {
  const key = JSON.stringify(params);
  const first = useData(() => get(`jobs/${jobId}/findings`, { ...params, page_size: 100 }), [jobId, key]);
  const [more, setMore] = useState<FindingsAnswer[]>([]);
  useEffect(() => { setMore([]); if (first.data) onLoaded?.(first.data.findings); }, [first.data]);
  if (!first.data) return <Loading error={first.error} />;
  const pages = [first.data, ...more];
  const findings = pages.flatMap((p) => p.findings);
  const next = pages[pages.length - 1].next_page_token;
  const patchJob = params.change === 'fixed' ? first.data.compared_with : jobId;
  const loadMore = async () => {
    const page = await get(`jobs/${jobId}/findings`, { ...params, page_size: 100, page_token: next });
    setMore((m) => [...m, page]);
    onLoaded?.(page.findings);
  };
  return (
    <div data-testid={testid} data-shown={findings.length} data-complete={String(!next)}>
      {findings.map((f) => <FindingItem f={f} listChange={listChange ?? params.change} patchJob={patchJob} onPath={onPath} />)}
      {findings.length === 0 && <p class="muted" data-testid="none">none</p>}
      {next && <button data-testid="more" onClick={loadMore}>more</button>}
    </div>
  );
}

function RuleTable({ rules, onRule }: { rules: RuleCount[]; onRule: (r: string) => void }) {
  return (
    <table data-testid="rules" class="compact">
      <thead><tr><th>rule</th><th>severity</th><th class="num">findings</th><th class="num">need a person</th>
        <th class="num">new</th><th>files</th><th>what</th></tr></thead>
      <tbody>{rules.map((r) => (
        <tr data-testid="rule" data-rule={r.rule_id}>
          <td><a href="javascript:void 0" data-testid="rule-filter" onClick={(e) => { e.preventDefault(); onRule(r.rule_id); }}>{r.rule_id}</a>
            {' '}<a class="small" data-testid="rule-doc" href={link('rule', r.rule_id)}>doc</a></td>
          <td><Badge value={r.severity} /></td>
          <td class="num" data-testid="rule-count">{r.count}</td>
          <td class="num" data-testid="rule-open">{r.open ?? r.count - r.auto_fixed}</td>
          <td class="num">{r.new ?? '—'}</td><td class="num">{r.files}</td><td class="muted">{r.message}</td>
        </tr>))}</tbody>
    </table>
  );
}

function FilterBar({ filters, rules, paths, set }: { filters: FindingFilters; rules: RuleCount[]; paths: string[]; set: (f: FindingFilters) => void }) {
  const inactive = rules.reduce((n, r) => n + (r.inactive ?? 0), 0);
  const select = (testid: string, value: string | undefined, options: [string, string][], on: (v: string) => void) =>
    <select data-testid={testid} value={value ?? ''} onChange={(e) => on((e.target as HTMLSelectElement).value)}>
      {options.map(([v, label]) => <option value={v}>{label}</option>)}</select>;
  return (
    <p class="filters" data-testid="filters">
      <label><input type="checkbox" data-testid="filter-open" checked={filters.open}
                    onChange={(e) => set({ ...filters, open: (e.target as HTMLInputElement).checked })} /> needs a person</label>
      {' '}severity {select('filter-severity', filters.severity, [['', 'any'], ['error', 'error'], ['warning', 'warning'], ['note', 'note']],
        (v) => set({ ...filters, severity: v || undefined }))}
      {' '}rule {select('filter-rule', filters.rule, [['', 'any'], ...rules.map((r): [string, string] => [r.rule_id, `${r.rule_id} (${r.count})`])],
        (v) => set({ ...filters, rule: v || undefined }))}
      {' '}file {select('filter-path', filters.path, [['', 'any'], ...paths.map((p): [string, string] => [p, p])],
        (v) => set({ ...filters, path: v || undefined }))}
      {' '}change {select('change', filters.change ?? 'all', [['all', 'all'], ['new', 'new since the compared job'],
        ['unchanged', 'unchanged'], ['fixed', 'fixed since the compared job']], (v) => set({ ...filters, change: v }))}
      {' '}<label title="findings in code the build does not compile (an #if branch not taken): listed, never open work">
        <input type="checkbox" data-testid="filter-inactive" checked={!!filters.inactive}
               onChange={(e) => set({ ...filters, inactive: (e.target as HTMLInputElement).checked })} /> inactive (<span data-testid="inactive-count">{inactive}</span>)</label>
      {' '}<a href="javascript:void 0" data-testid="filter-clear" onClick={(e) => { e.preventDefault(); set({ open: false }); }}>clear</a>
    </p>
  );
}

// Inactive findings are hidden by default; the page says how many, and how to see them.
function InactiveNote({ rules, filters, set }: { rules: RuleCount[]; filters: FindingFilters; set: (f: FindingFilters) => void }) {
  const count = rules.reduce((n, r) => n + (r.inactive ?? 0), 0);
  if (count === 0 || filters.inactive) return null;
  return <p class="muted" data-testid="inactive-hidden" data-count={count}>{count} finding(s) in code the build does not compile
    (an <code>#if</code> branch not taken) hidden: listed, never open work.{' '}
    <a href="javascript:void 0" data-testid="show-inactive" onClick={(e) => { e.preventDefault(); set({ ...filters, inactive: true }); }}>show them</a></p>;
}

export function Findings({ id, filters }: { id: string; filters: FindingFilters }) {
  const rules = useData(() => get(`jobs/${id}/findings/rules`), [id]);
  const [paths, setPaths] = useState<string[]>([]);
  const set = (f: FindingFilters) => { location.hash = link('job', id, 'findings') + filtersToQuery(f); };
  const seen = (list: DashboardFinding[]) => setPaths((p) => [...new Set([...p, ...list.map((f) => f.path).filter(Boolean)])].sort());
  if (!rules.data) return <Loading error={rules.error} />;
  const options = filters.path && !paths.includes(filters.path) ? [...paths, filters.path] : paths;
  const savePatch = async () => filters.path && saveFile(`${filters.path.replace(/[\/\\]/g, '_')}.patch`,
    filePatch(filters.path, await hunksOf(id, filters.path)), 'text/x-diff');
  return (
    <section data-testid="findings-page" data-query={filtersToQuery(filters)}>
      <h2><a href={link('job', id)}>job {short(id)}</a> · findings, open work first</h2>
      <p class="muted">{rules.data.compared_with ? <>new / unchanged compare with job <a href={link('job', rules.data.compared_with)}>{short(rules.data.compared_with)}</a></>
        : 'first job of the repository: nothing to compare with'}</p>
      <details class="rules-box" open><summary>By rule</summary>
        <RuleTable rules={rules.data.rules} onRule={(r) => set({ ...filters, rule: r })} /></details>
      <FilterBar filters={filters} rules={rules.data.rules} paths={options} set={set} />
      <InactiveNote rules={rules.data.rules} filters={filters} set={set} />
      {filters.path && <p><button data-testid="download-file-patch" onClick={savePatch}>download the patch of {filters.path}</button></p>}
      {bucketsFor(filters).map((b) => (
        <section class={`bucket bucket-${b.key}`} data-testid="bucket" data-bucket={b.key}>
          <h3>{b.title}</h3>
          <FindingPages jobId={id} params={b.params} listChange={filters.change} onLoaded={seen}
                        onPath={(p) => set({ ...filters, path: p })} testid="bucket-findings" />
        </section>))}
    </section>
  );
}

function UnchangedList({ base, head, count }: { base: string; head: string; count: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details data-testid="unchanged-box" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Unchanged ({count}: in both jobs)</summary>
      {open && <FindingPages jobId={head} params={{ change: 'unchanged', since: base }} listChange="unchanged" testid="unchanged-list" />}
    </details>
  );
}

export function Compare({ base, head }: { base: string; head: string }) {
  const { data, error } = useData(() => get('compare', { base, head }), [base, head]);
  if (!data) return <Loading error={error} />;
  const card = (testid: string, value: string | number, label: string) =>
    <div class="card"><div class="value" data-testid={testid}>{value}</div><div class="label">{label}</div></div>;
  return (
    <section>
      <h2>Compare <a href={link('job', base)}>{short(base)}</a> → <a href={link('job', head)}>{short(head)}</a></h2>
      <p class="muted">{data.base.created_at?.slice(0, 16).replace('T', ' ')} (commit <code>{(data.base.spec.commit || '—').slice(0, 10)}</code>)
        {' → '}{data.head.created_at?.slice(0, 16).replace('T', ' ')} (commit <code>{(data.head.spec.commit || '—').slice(0, 10)}</code>)</p>
      <div class="cards">
        {card('compare-fixed', data.fixed, 'fixed (gone in the newer job)')}
        {card('compare-new', data.new, 'new (only in the newer job)')}
        {card('compare-unchanged', data.unchanged, 'unchanged')}
        {card('compare-open-errors', `${data.base.summary.open_errors} → ${data.head.summary.open_errors}`, 'open errors')}
        <div class="card"><div class="value"><VerdictBadge job={data.base} /> → <VerdictBadge job={data.head} testid="compare-verdict" /></div><div class="label">verdict</div></div>
        <div class="card"><div class="value"><Gate gate={data.base.summary.gate} /> → <Gate gate={data.head.summary.gate} /></div><div class="label">gate</div></div>
      </div>
      <table data-testid="compare-rules" class="compact"><thead><tr><th>rule</th><th class="num">fixed</th><th class="num">new</th><th class="num">unchanged</th></tr></thead>
        <tbody>{data.rules.map((r) => <tr><td><a href={link('rule', r.rule_id)}>{r.rule_id}</a></td><td class="num">{r.fixed}</td>
          <td class="num">{r.new}</td><td class="num">{r.unchanged}</td></tr>)}</tbody></table>
      <h3>Fixed: in {short(base)}, gone in {short(head)}</h3>
      <FindingPages jobId={head} params={{ change: 'fixed', since: base }} listChange="fixed" testid="fixed-list" />
      <h3>New: only in {short(head)}</h3>
      <FindingPages jobId={head} params={{ change: 'new', since: base }} listChange="new" testid="new-list" />
      <UnchangedList base={base} head={head} count={data.unchanged} />
    </section>
  );
}
