// One job: its verdict (what was proved, what was not), open work, downloads, progress, builds, tests, parity
// and kernel times.
import { useEffect, useState } from 'preact/hooks';
import { FINAL, download, get, short, stateName, watch } from './api';
import { ChartView } from './charts';
import { downloadsOf, gateSourceWords, libraryOf, progressLine, verdictOf } from './model';
import type { DashboardBuild, JobAnswer, KernelResource, Report } from './api-types';
import { Badge, Gate, Loading, link, num, useData } from './ui';

function VerdictPanel({ job }: { job: JobAnswer }) {
  const v = verdictOf(job);
  const s = job.summary;
  const findings = (query: string) => link('job', job.id, 'findings') + query;
  return (
    <div class={`verdict verdict-${v.level}`} data-testid="verdict" data-level={v.level}>
      <div class="verdict-head">Verdict: <strong data-testid="verdict-headline">{v.headline}</strong>
        <span class="muted"> · pipeline {stateName(job.state)}{v.stored ? '' : ' (no validation report)'}</span></div>
      {v.notProved.length > 0 && <div>Not proved:<ul data-testid="not-proved">{v.notProved.map((n) => <li>{n}</li>)}</ul></div>}
      <div data-testid="open-work">Open work:{' '}
        <a href={findings('?open=1&severity=error')} data-testid="open-errors-link">{s.open_errors} error(s) needing a person</a>
        {' · '}<a href={findings('?open=1&severity=warning')}>warnings that may compute wrong</a>
        {' · '}<a href={findings('?open=1')}>all open findings</a></div>
    </div>
  );
}

function Downloads({ job }: { job: JobAnswer }) {
  const [error, setError] = useState('');
  const save = (path: string, name: string) => download(path, name).then(() => setError(''), (e) => setError(String(e.message ?? e)));
  const files = downloadsOf(job);
  return (
    <div class="downloads" data-testid="downloads">
      Downloads:{' '}
      <button data-testid="download-report" onClick={() => save(`jobs/${job.id}/report`, `hipforge-report-${short(job.id)}.json`)}>report (JSON)</button>
      {files.map((f) => <>{' '}<button data-testid={`download-${f.what}`} onClick={() =>
        save(`jobs/${job.id}/download/${f.what}`, `hipforge-${short(job.id)}-${f.what}`)}>{f.label}</button></>)}
      {!files.some((f) => f.what === 'build-log') && <span class="muted small"> · no build log (no validation build stored one)</span>}
      <div class="muted small">The same from the CLI (full job id):{' '}
        <code data-testid="cli-downloads">migrate-cli report {job.id} --format sarif -o {short(job.id)}.sarif; migrate-cli fetch {job.id} --patch {short(job.id)}.patch --out {short(job.id)}-hip</code></div>
      {error && <div class="error-box" data-testid="download-error">{error}</div>}
    </div>
  );
}

// Every condition is shown; those the gate's definition does not require are marked so (the gate ignores them).
function GatePanel({ gate }: { gate: Report.Gate }) {
  const { definition } = gate;
  return (
    <>
      <h3>Migration gate</h3>
      <p data-testid="gate-definition" data-source={definition.source}>
        <Gate gate={gate} /> · definition from <strong data-testid="gate-source">{gateSourceWords(definition.source)}</strong>:
        {' '}requires {definition.requires.join(', ') || 'nothing'}</p>
      <table data-testid="conditions"><thead><tr><th>condition</th><th>status</th><th>in the gate</th><th>detail</th></tr></thead>
        <tbody>{gate.conditions.map((c) =>
          <tr data-testid="condition" data-condition={c.name} data-required={String(c.required)} class={c.required ? '' : 'not-required'}>
            <td>{c.name}</td><td><Badge value={c.status} /></td>
            <td data-testid="condition-required">{c.required ? 'required' : 'not required'}</td><td>{c.detail}</td></tr>)}</tbody></table>
    </>
  );
}

// A running job streams its events live; a finished job's log is replayed when opened.
function ProgressLog({ job, onFinal }: { job: JobAnswer; onFinal: () => void }) {
  const final = FINAL.has(job.state);
  const [open, setOpen] = useState(!final);
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    if (!open) return;
    setLines([]);
    const abort = new AbortController();
    watch(job.id, {
      event: (kind, data) => setLines((l) => [...l.slice(-500), progressLine(kind, data)]),
      end: () => { if (!final) onFinal(); },
    }, abort.signal).catch(() => {});
    return () => abort.abort();
  }, [job.id, final, open]);
  const body = <div class="live" data-testid="live">{lines.map((l) => <div data-testid="progress-line">{l}</div>)}</div>;
  if (!final) return body;
  return <details data-testid="progress-log" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
    <summary>Progress log</summary>{body}</details>;
}

function KernelTable({ builds, names, testid }: { builds: DashboardBuild[]; names: string[]; testid: string }) {
  const fields: KernelResource[] = ['vgprs', 'sgprs', 'lds_bytes', 'occupancy', 'spills'];
  return (
    <div class="scroll"><table data-testid={testid}>
      <thead><tr><th>kernel</th><th>resource</th>{builds.map((b) =>
        <th>{b.arch || b.requested_arch} <span class="muted">{b.toolchain}</span> <Badge value={b.ok ? 'ok' : 'failed'} /></th>)}</tr></thead>
      <tbody>
        {names.flatMap((name) => fields.map((field, i) => {
          const values = builds.map((b) => b.kernels.find((k) => k.name === name)?.[field]);
          const differs = new Set(values.map(String)).size > 1;
          return <tr data-testid={i === 0 ? 'kernel' : undefined} data-kernel={i === 0 ? name : undefined}>
            {i === 0 && <td rowSpan={fields.length}><code>{name}</code></td>}<td>{field}</td>
            {values.map((v) => <td class={`num ${differs ? 'diff' : ''}`}>{v ?? '—'}</td>)}</tr>;
        }))}
        {testid === 'builds' && builds.some((b) => b.note || !b.ok) && <tr><td colSpan={2}>notes</td>{builds.map((b) =>
          <td>{b.note}{!b.ok && <pre>{b.log_excerpt}</pre>}</td>)}</tr>}
      </tbody>
    </table></div>
  );
}

// The project's kernels first; rocPRIM / Thrust / CUB / hipCUB kernels folded apart.
function BuildMatrix({ builds }: { builds: DashboardBuild[] }) {
  if (builds.length === 0) return <p class="muted">No builds (translate-only, or validation did not run).</p>;
  const names = [...new Set(builds.flatMap((b) => b.kernels.map((k) => k.name)))];
  const project = names.filter((n) => !libraryOf(n));
  const library = names.filter((n) => libraryOf(n));
  const libraries = [...new Set(library.map((n) => libraryOf(n)))].join(', ');
  return (
    <>
      <KernelTable builds={builds} names={project} testid="builds" />
      {project.length === 0 && <p class="muted">No kernels of the project's own.</p>}
      {library.length > 0 && <details class="library" data-testid="library-kernels" data-count={library.length}>
        <summary>{library.length} library kernel(s) ({libraries}): instantiated from the libraries, not the project's code</summary>
        <KernelTable builds={builds} names={library} testid="library-builds" /></details>}
    </>
  );
}

function Results({ id, reload }: { id: string; reload: number }) {
  const tests = useData(() => get(`jobs/${id}/tests`), [id, reload]);
  const parity = useData(() => get(`jobs/${id}/parity`), [id, reload]);
  const profile = useData(() => get(`jobs/${id}/profile`), [id, reload]);
  return (
    <>
      <h3>Tests</h3>
      {tests.data && (tests.data.tests.length === 0 ? <p class="muted">No tests ran.</p> :
        <table data-testid="tests"><thead><tr><th>test</th><th>arch</th><th>status</th><th>CUDA original</th><th class="num">ms</th><th>output</th></tr></thead>
          <tbody>{tests.data.tests.map((x) => <tr><td>{x.name}</td><td>{x.arch}</td><td><Badge value={x.status} /></td>
            <td>{x.cuda_status ? <Badge value={x.cuda_status} /> : <span class="muted">–</span>}</td>
            <td class="num">{x.duration_ms}</td><td><pre>{x.output_excerpt}</pre></td></tr>)}</tbody></table>)}
      <h3>Parity (CUDA reference vs HIP)</h3>
      {parity.data && (parity.data.parity.length === 0 ? <p class="muted">No parity cases.</p> :
        <table data-testid="parity"><thead><tr><th>case</th><th>verdict</th><th class="num">max abs err</th><th class="num">max rel err</th><th class="num">mismatches</th><th>first mismatch</th></tr></thead>
          <tbody>{parity.data.parity.map((p) => <tr><td>{p.case}</td><td><Badge value={p.verdict} /></td>
            <td class="num">{p.max_abs_error ?? '∞'}</td><td class="num">{p.max_rel_error ?? '∞'}</td>
            <td class="num">{p.mismatches}{p.elements ? ` / ${p.elements}` : ''}</td><td>{p.detail}</td></tr>)}</tbody></table>)}
      <h3>Kernel time: HIP vs CUDA</h3>
      {profile.data && (profile.data.profile.length === 0 ? <p class="muted">Not profiled.</p> :
        <ChartView testid="profile-chart" config={{ type: 'bar', data: {
          labels: profile.data.profile.map((k) => k.kernel),
          datasets: [{ label: 'HIP ns', data: profile.data.profile.map((k) => k.total_ns), backgroundColor: '#8b1e3f' },
                     { label: 'CUDA ns', data: profile.data.profile.map((k) => k.cuda_baseline_ns ?? null), backgroundColor: '#1a7f37' }] } }} />)}
      {profile.data && profile.data.profile.some((k) => k.ratio != null) &&
        <table data-testid="profile-ratios"><thead><tr><th>kernel</th><th class="num">HIP ns</th><th class="num">CUDA ns</th><th class="num">HIP/CUDA</th></tr></thead>
          <tbody>{profile.data.profile.map((k) => <tr><td>{k.kernel}</td><td class="num">{k.total_ns}</td>
            <td class="num">{k.cuda_baseline_ns ?? '–'}</td><td class="num">{k.ratio == null ? '–' : k.ratio.toFixed(2)}</td></tr>)}</tbody></table>}
    </>
  );
}

export function Job({ id }: { id: string }) {
  const [reload, setReload] = useState(0);
  const job = useData(() => get(`jobs/${id}`), [id, reload]);
  const builds = useData(() => get(`jobs/${id}/builds`), [id, reload]);
  if (!job.data) return <Loading error={job.error} />;
  const j = job.data, s = j.summary, t: Partial<Report.Totals> = j.translation?.totals ?? {};
  return (
    <section>
      <h2><a href={link('repo', j.spec.repository || j.spec.name)}>{j.spec.repository || j.spec.name}</a> · job <span data-testid="job-id">{short(j.id)}</span>
        {' '}<span class="muted small">pipeline</span> <Badge value={j.state} testid="job-state" /></h2>
      <p class="muted">branch {j.spec.branch || '—'} · commit <code>{j.spec.commit || '—'}</code> · targets {j.spec.targets.join(', ') || '—'} · {j.created_at}
        {' '}· id <code data-testid="full-id">{j.id}</code></p>
      {j.error && <div class="error-box">{j.error}</div>}
      <VerdictPanel job={j} />
      <ProgressLog job={j} onFinal={() => setReload((r) => r + 1)} />
      <div class="cards" data-testid="summary">
        <div class="card"><div class="value" data-testid="files">{t.files ?? '—'}</div><div class="label">files ({t.translated ?? 0} translated, {t.fallback ?? 0} fallback)</div></div>
        <div class="card"><div class="value">{t.converted ?? '—'}</div><div class="label">API calls converted</div></div>
        <div class="card"><div class="value" data-testid="findings-count">{s.findings}</div><div class="label">findings ({s.auto_fixed} auto-fixed)</div></div>
        <div class="card"><div class="value" data-testid="job-open-errors">{s.open_errors}</div><div class="label">open errors</div></div>
        <div class="card"><div class="value">{num(s.engineer_hours, 1)}</div><div class="label">engineer hours · {num((s.automatic_share ?? 0) * 100)}% automatic</div></div>
        <div class="card"><div class="value"><Gate gate={s.gate} /></div><div class="label">migration gate</div></div>
      </div>
      <p class="tabs"><a data-testid="findings-link" href={link('job', id, 'findings')}>Findings →</a>
        {j.previous_job_id && <a data-testid="compare-previous" href={link('compare', j.previous_job_id, id)}>Compare with previous job →</a>}</p>
      <Downloads job={j} />
      <GatePanel gate={s.gate} />
      <h3>Builds: arch matrix</h3>
      {builds.data ? <BuildMatrix builds={builds.data.builds} /> : <Loading error={builds.error} />}
      <Results id={id} reload={reload} />
    </section>
  );
}
