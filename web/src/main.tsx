// hipforge team dashboard: overview -> repository -> job -> findings -> compare (hash routes).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, FINAL, get, signIn, signOut, stateName, short, takeTokenFromFragment, token, watch } from './api';
import { ChartView } from './charts';

type Json = any;

function useRoute(): string[] {
  const parse = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse());
  useEffect(() => {
    const on = () => setRoute(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

// Loads `load()` whenever `deps` change; errors are shown, 401 sends the person back to sign in.
function useData<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    load().then((data) => live && setState({ data }), (e) => {
      if (e instanceof ApiError && e.status === 401) { signOut(); location.reload(); }
      if (live) setState({ error: String(e.message ?? e) });
    });
    return () => { live = false; };
  }, deps);
  return state;
}

const link = (...parts: string[]) => '#/' + parts.map(encodeURIComponent).join('/');
const Badge = ({ value, testid }: { value: string; testid?: string }) =>
  <span class={`badge ${value}`} data-testid={testid}>{value.startsWith('JOB_STATE_') ? stateName(value) : value}</span>;
const Loading = ({ error }: { error?: string }) =>
  error ? <div class="error-box" data-testid="error">{error}</div> : <p class="muted">loading…</p>;
const num = (v: number | null | undefined, digits = 0) => v === null || v === undefined ? '—' : v.toFixed(digits);

function SignIn() {
  const [value, setValue] = useState('');
  return (
    <form class="signin" data-testid="signin" onSubmit={(e) => { e.preventDefault(); signIn(value); location.reload(); }}>
      <h2>Sign in</h2>
      <p class="muted">Paste an API token with the read scope (<code>migrate-server token create --scopes read</code>).
        It is kept for this browser session only.</p>
      <input type="password" name="token" placeholder="API token" value={value}
             onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
      <button type="submit">Sign in</button>
    </form>
  );
}

function Gate({ gate }: { gate: Json }) {
  if (!gate) return <span class="muted">no finished job</span>;
  return <span data-testid="gate"><Badge value={gate.status} testid="gate-status" />{' '}
    {gate.blocking.length > 0 && <span data-testid="gate-blocking">blocked by {gate.blocking.join(', ')}</span>}</span>;
}

function Overview({ team }: { team: string }) {
  const { data, error } = useData(() => get(`teams/${encodeURIComponent(team)}/repositories`), [team]);
  if (!data) return <Loading error={error} />;
  return (
    <section>
      <h2>Team {team}: migration gate per repository</h2>
      <table data-testid="repositories">
        <thead><tr><th>repository</th><th class="num">jobs</th><th>latest job</th><th>gate (latest finished job)</th><th>open errors</th><th>effort h</th></tr></thead>
        <tbody>
          {data.repositories.map((r: Json) => (
            <tr data-testid="repository-row" data-repository={r.repository}>
              <td><a href={link('repo', r.repository)}>{r.repository}</a></td>
              <td class="num">{r.jobs}</td>
              <td><a href={link('job', r.latest_job.id)}>{short(r.latest_job.id)}</a> <Badge value={r.latest_job.state} /></td>
              <td><Gate gate={r.gate_job?.summary.gate} /></td>
              <td class="num" data-testid="open-errors">{r.gate_job?.summary.open_errors ?? '—'}</td>
              <td class="num">{num(r.gate_job?.summary.engineer_hours, 1)}</td>
            </tr>))}
        </tbody>
      </table>
      {data.repositories.length === 0 && <p class="muted">No jobs yet: <code>migrate-cli submit ./repo</code>.</p>}
    </section>
  );
}

function Trends({ repository }: { repository: string }) {
  const { data, error } = useData(() => get('trends', { repository, limit: 50 }), [repository]);
  if (!data) return <Loading error={error} />;
  const points: Json[] = data.points;
  const labels = points.map((p) => short(p.job_id));
  const line = (label: string, values: (number | null)[], color: string) =>
    ({ label, data: values, borderColor: color, backgroundColor: color, spanGaps: true });
  return (
    <div class="charts">
      <ChartView testid="trend-findings" config={{ type: 'line', data: { labels, datasets: [
        line('open errors', points.map((p) => p.summary.open_errors), '#c62828'),
        line('warnings', points.map((p) => p.summary.warnings), '#b26a00'),
        line('all findings', points.map((p) => p.summary.findings), '#4a6fa5')] },
        options: { plugins: { title: { display: true, text: 'Findings' } } } }} />
      <ChartView testid="trend-effort" config={{ type: 'line', data: { labels, datasets: [
        line('engineer hours left', points.map((p) => p.summary.engineer_hours), '#8b1e3f')] },
        options: { plugins: { title: { display: true, text: 'Effort burn-down' } } } }} />
      <ChartView testid="trend-verdicts" config={{ type: 'bar', data: { labels, datasets: [
        { label: 'builds ok', data: points.map((p) => p.summary.builds_ok), backgroundColor: '#1a7f37' },
        { label: 'builds failed', data: points.map((p) => p.summary.builds_failed), backgroundColor: '#c62828' },
        { label: 'tests failed', data: points.map((p) => p.summary.tests_failed), backgroundColor: '#e57373' },
        { label: 'parity mismatches', data: points.map((p) => p.summary.parity_mismatch), backgroundColor: '#b26a00' }] },
        options: { plugins: { title: { display: true, text: 'Verdicts' } } } }} />
      <ChartView testid="trend-kernel-ratio" config={{ type: 'line', data: { labels, datasets: [
        line('HIP / CUDA kernel time', points.map((p) => p.summary.kernel_time_ratio), '#1f5fbf')] },
        options: { plugins: { title: { display: true, text: 'Kernel time ratio (lower is better)' } } } }} />
    </div>
  );
}

function JobTable({ jobs, onPick, picked }: { jobs: Json[]; onPick?: (id: string) => void; picked?: string[] }) {
  return (
    <table data-testid="jobs">
      <thead><tr>{onPick && <th>compare</th>}<th>job</th><th>state</th><th>branch</th><th>commit</th><th>created</th>
        <th class="num">findings</th><th class="num">open errors</th><th>gate</th></tr></thead>
      <tbody>{jobs.map((j) => (
        <tr data-testid="job-row" data-job={j.id}>
          {onPick && <td><input type="checkbox" data-testid="pick" checked={picked?.includes(j.id)} onChange={() => onPick(j.id)} /></td>}
          <td><a href={link('job', j.id)}>{short(j.id)}</a> {j.spec.name}</td>
          <td><Badge value={j.state} /></td><td>{j.spec.branch}</td><td><code>{j.spec.commit.slice(0, 10)}</code></td>
          <td>{j.created_at.replace('T', ' ').slice(0, 19)}</td>
          <td class="num" data-testid="job-findings">{j.summary.findings}</td><td class="num">{j.summary.open_errors}</td>
          <td><Gate gate={j.summary.gate} /></td>
        </tr>))}
      </tbody>
    </table>
  );
}

function Repository({ repository }: { repository: string }) {
  const [pages, setPages] = useState<Json[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const first = useData(() => get('jobs', { repository, page_size: 25 }), [repository]);
  useEffect(() => { if (first.data) setPages([first.data]); }, [first.data]);
  const jobs = pages.flatMap((p) => p.jobs);
  const next = pages.length ? pages[pages.length - 1].next_page_token : '';
  const pick = (id: string) => setPicked((p) => p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2));
  const ordered = jobs.filter((j) => picked.includes(j.id)).reverse();  // oldest first: base, head
  return (
    <section>
      <h2 data-testid="repository-name">{repository}</h2>
      <Trends repository={repository} />
      <h3>Jobs</h3>
      {!first.data ? <Loading error={first.error} /> : <JobTable jobs={jobs} onPick={pick} picked={picked} />}
      {next && <button onClick={async () => { const p = await get('jobs', { repository, page_size: 25, page_token: next }); setPages([...pages, p]); }}>more</button>}
      <p>{ordered.length === 2
        ? <a data-testid="compare-link" href={link('compare', ordered[0].id, ordered[1].id)}>compare {short(ordered[0].id)} → {short(ordered[1].id)}</a>
        : <span class="muted">tick two jobs to compare them</span>}</p>
    </section>
  );
}

function LiveProgress({ job, onFinal }: { job: Json; onFinal: () => void }) {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    if (FINAL.has(job.state)) return;
    const abort = new AbortController();
    watch(job.id, (kind, data) => {
      if (kind === 'end') { onFinal(); return; }
      const detail = data.state_change ? `${stateName(data.state_change.from ?? '')} → ${stateName(data.state_change.to)}`
        : data.file_progress ? `${data.file_progress.done}/${data.file_progress.total} ${data.file_progress.path}`
        : data.step ? `${data.step.kind} ${data.step.name} ${data.step.status} ${data.step.detail ?? ''}`
        : data.log ? data.log.message : kind;
      setLines((l) => [...l.slice(-200), detail]);
    }, abort.signal).catch(() => {});
    return () => abort.abort();
  }, [job.id, job.state]);
  if (FINAL.has(job.state)) return null;
  return <div class="live" data-testid="live">{lines.map((l) => <div>{l}</div>)}</div>;
}

function BuildMatrix({ builds }: { builds: Json[] }) {
  if (builds.length === 0) return <p class="muted">No builds (translate-only, or validation did not run).</p>;
  const kernels = [...new Set(builds.flatMap((b) => b.kernels.map((k: Json) => k.name)))];
  const fields = ['vgprs', 'sgprs', 'lds_bytes', 'occupancy', 'spills'];
  return (
    <table data-testid="builds">
      <thead><tr><th>kernel</th><th>resource</th>{builds.map((b) =>
        <th>{b.arch || b.requested_arch} <span class="muted">{b.toolchain}</span> <Badge value={b.ok ? 'ok' : 'failed'} /></th>)}</tr></thead>
      <tbody>
        {kernels.flatMap((name) => fields.map((field, i) => {
          const values = builds.map((b) => b.kernels.find((k: Json) => k.name === name)?.[field]);
          const differs = new Set(values.map(String)).size > 1;
          return <tr>{i === 0 && <td rowSpan={fields.length}><code>{name}</code></td>}<td>{field}</td>
            {values.map((v) => <td class={`num ${differs ? 'diff' : ''}`}>{v ?? '—'}</td>)}</tr>;
        }))}
        {builds.some((b) => b.note || !b.ok) && <tr><td colSpan={2}>notes</td>{builds.map((b) =>
          <td>{b.note}{!b.ok && <pre>{b.log_excerpt}</pre>}</td>)}</tr>}
      </tbody>
    </table>
  );
}

function Job({ id }: { id: string }) {
  const [reload, setReload] = useState(0);
  const job = useData(() => get(`jobs/${id}`), [id, reload]);
  const builds = useData(() => get(`jobs/${id}/builds`), [id, reload]);
  const tests = useData(() => get(`jobs/${id}/tests`), [id, reload]);
  const parity = useData(() => get(`jobs/${id}/parity`), [id, reload]);
  const profile = useData(() => get(`jobs/${id}/profile`), [id, reload]);
  if (!job.data) return <Loading error={job.error} />;
  const j = job.data, s = j.summary, t = j.translation?.totals ?? {};
  return (
    <section>
      <h2><a href={link('repo', j.spec.repository || j.spec.name)}>{j.spec.repository || j.spec.name}</a> · job <span data-testid="job-id">{short(j.id)}</span> <Badge value={j.state} testid="job-state" /></h2>
      <p class="muted">branch {j.spec.branch || '—'} · commit <code>{j.spec.commit || '—'}</code> · targets {j.spec.targets.join(', ') || '—'} · {j.created_at}</p>
      {j.error && <div class="error-box">{j.error}</div>}
      <LiveProgress job={j} onFinal={() => setReload((r) => r + 1)} />
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
      <h3>Gate conditions</h3>
      <table data-testid="conditions"><tbody>{s.gate.conditions.map((c: Json) =>
        <tr><td>{c.name}</td><td><Badge value={c.status} /></td><td>{c.detail}</td></tr>)}</tbody></table>
      <h3>Builds: arch matrix</h3>
      {builds.data ? <BuildMatrix builds={builds.data.builds} /> : <Loading error={builds.error} />}
      <h3>Tests</h3>
      {tests.data && (tests.data.tests.length === 0 ? <p class="muted">No tests ran.</p> :
        <table data-testid="tests"><thead><tr><th>test</th><th>arch</th><th>status</th><th>CUDA original</th><th class="num">ms</th><th>output</th></tr></thead>
          <tbody>{tests.data.tests.map((x: Json) => <tr><td>{x.name}</td><td>{x.arch}</td><td><Badge value={x.status} /></td>
            <td>{x.cuda_status ? <Badge value={x.cuda_status} /> : <span class="muted">–</span>}</td>
            <td class="num">{x.duration_ms}</td><td><pre>{x.output_excerpt}</pre></td></tr>)}</tbody></table>)}
      <h3>Parity (CUDA reference vs HIP)</h3>
      {parity.data && (parity.data.parity.length === 0 ? <p class="muted">No parity cases.</p> :
        <table data-testid="parity"><thead><tr><th>case</th><th>verdict</th><th class="num">max abs err</th><th class="num">max rel err</th><th class="num">mismatches</th><th>first mismatch</th></tr></thead>
          <tbody>{parity.data.parity.map((p: Json) => <tr><td>{p.case}</td><td><Badge value={p.verdict} /></td>
            <td class="num">{p.max_abs_error ?? '∞'}</td><td class="num">{p.max_rel_error ?? '∞'}</td>
            <td class="num">{p.mismatches}{p.elements ? ` / ${p.elements}` : ''}</td><td>{p.detail}</td></tr>)}</tbody></table>)}
      <h3>Kernel time: HIP vs CUDA</h3>
      {profile.data && (profile.data.profile.length === 0 ? <p class="muted">Not profiled.</p> :
        <ChartView testid="profile-chart" config={{ type: 'bar', data: {
          labels: profile.data.profile.map((k: Json) => k.kernel),
          datasets: [{ label: 'HIP ns', data: profile.data.profile.map((k: Json) => k.total_ns), backgroundColor: '#8b1e3f' },
                     { label: 'CUDA ns', data: profile.data.profile.map((k: Json) => k.cuda_baseline_ns), backgroundColor: '#1a7f37' }] } }} />)}
      {profile.data && profile.data.profile.some((k: Json) => k.ratio != null) &&
        <table data-testid="profile-ratios"><thead><tr><th>kernel</th><th class="num">HIP ns</th><th class="num">CUDA ns</th><th class="num">HIP/CUDA</th></tr></thead>
          <tbody>{profile.data.profile.map((k: Json) => <tr><td>{k.kernel}</td><td class="num">{k.total_ns}</td>
            <td class="num">{k.cuda_baseline_ns ?? '–'}</td><td class="num">{k.ratio == null ? '–' : k.ratio.toFixed(2)}</td></tr>)}</tbody></table>}
    </section>
  );
}

// The hunk of the HIP patch around `line` (old-side numbering), if the file changed there.
function Hunk({ hunks, line }: { hunks?: Json[]; line: number }) {
  if (!hunks) return null;
  const hunk = hunks.find((h) => line >= h.old_start && line < h.old_start + Math.max(h.old_lines, 1))
    ?? hunks.find((h) => Math.abs(h.old_start - line) <= 3);
  if (!hunk) return <div class="muted">line unchanged by the translation</div>;
  return <pre class="hunk" data-testid="hunk">{hunk.header + '\n'}{hunk.lines.map((l: string) =>
    <span class={l[0] === '-' ? 'del' : l[0] === '+' ? 'add' : ''}>{l + '\n'}</span>)}</pre>;
}

function FindingList({ jobId, params, patchJob }: { jobId: string; params: Record<string, string>; patchJob: string }) {
  const [pages, setPages] = useState<Json[]>([]);
  const [hunks, setHunks] = useState<Record<string, Json[]>>({});
  const first = useData(() => get(`jobs/${jobId}/findings`, { ...params, page_size: 100 }), [jobId, JSON.stringify(params)]);
  useEffect(() => { if (first.data) setPages([first.data]); }, [first.data]);
  const findings: Json[] = pages.flatMap((p) => p.findings);
  useEffect(() => {
    for (const path of new Set(findings.map((f) => f.path))) {
      if (path && !(path in hunks)) {
        get(`jobs/${patchJob}/patch`, { path }).then((p) => setHunks((h) => ({ ...h, [path]: p.hunks })), () => setHunks((h) => ({ ...h, [path]: [] })));
      }
    }
  }, [findings.length]);
  if (!first.data) return <Loading error={first.error} />;
  const byFile = new Map<string, Json[]>();
  for (const f of findings) byFile.set(f.path, [...(byFile.get(f.path) ?? []), f]);
  const next = pages[pages.length - 1]?.next_page_token;
  return (
    <div>
      {[...byFile].map(([path, list]) => (
        <div class="file" data-testid="finding-file"><strong>{path || '(repository)'}</strong>
          {list.map((f) => (
            <div class="finding" data-testid="finding" data-rule={f.rule_id} data-line={f.line}>
              line {f.line}: {f.message} <Badge value={f.severity} />{' '}
              <span data-testid="fix-state" class="muted">{f.auto_fixed ? 'auto-fixed' : 'needs a person'}</span>
              {f.in_other === false && <span class="badge error">new</span>}
              {f.source_line && <code class="cuda" data-testid="cuda-line">{f.source_line}</code>}
              {f.fix && <div class="muted">fix: {f.fix}</div>}
              <Hunk hunks={hunks[f.path]} line={f.line} />
            </div>))}
        </div>))}
      {findings.length === 0 && <p class="muted">none</p>}
      {next && <button onClick={async () => { const p = await get(`jobs/${jobId}/findings`, { ...params, page_size: 100, page_token: next }); setPages([...pages, p]); }}>more</button>}
    </div>
  );
}

function Findings({ id }: { id: string }) {
  const [change, setChange] = useState('all');
  const rules = useData(() => get(`jobs/${id}/findings/rules`), [id]);
  if (!rules.data) return <Loading error={rules.error} />;
  return (
    <section>
      <h2><a href={link('job', id)}>job {short(id)}</a> · findings by rule → file → line</h2>
      <p>show <select data-testid="change" value={change} onChange={(e) => setChange((e.target as HTMLSelectElement).value)}>
        <option value="all">all</option><option value="new">new since the previous job</option>
        <option value="fixed">fixed since the previous job</option><option value="unchanged">unchanged</option></select>
        {rules.data.compared_with ? <span class="muted"> (compared with {short(rules.data.compared_with)})</span> : <span class="muted"> (first job of the repository)</span>}</p>
      {rules.data.rules.map((r: Json) => (
        <details class="rule" data-testid="rule" data-rule={r.rule_id}>
          <summary><strong>{r.rule_id}</strong> <Badge value={r.severity} /> <span data-testid="rule-count">{r.count}</span> finding(s) in {r.files} file(s),
            {' '}{r.auto_fixed} auto-fixed{r.new !== null ? `, ${r.new} new` : ''} · <a href={`rules/${r.rule_id}.md`} target="_blank">rule doc</a>
            <div class="muted">{r.message}</div></summary>
          <FindingList jobId={id} patchJob={id} params={{ rule: r.rule_id, change }} />
        </details>))}
    </section>
  );
}

function Compare({ base, head }: { base: string; head: string }) {
  const { data, error } = useData(() => get('compare', { base, head }), [base, head]);
  if (!data) return <Loading error={error} />;
  return (
    <section>
      <h2>Compare <a href={link('job', base)}>{short(base)}</a> → <a href={link('job', head)}>{short(head)}</a></h2>
      <div class="cards">
        <div class="card"><div class="value" data-testid="compare-fixed">{data.fixed}</div><div class="label">fixed</div></div>
        <div class="card"><div class="value" data-testid="compare-new">{data.new}</div><div class="label">new</div></div>
        <div class="card"><div class="value" data-testid="compare-unchanged">{data.unchanged}</div><div class="label">unchanged</div></div>
        <div class="card"><div class="value">{data.base.summary.open_errors} → {data.head.summary.open_errors}</div><div class="label">open errors</div></div>
        <div class="card"><div class="value"><Gate gate={data.base.summary.gate} /> → <Gate gate={data.head.summary.gate} /></div><div class="label">gate</div></div>
      </div>
      <table data-testid="compare-rules"><thead><tr><th>rule</th><th class="num">fixed</th><th class="num">new</th><th class="num">unchanged</th></tr></thead>
        <tbody>{data.rules.map((r: Json) => <tr><td>{r.rule_id}</td><td class="num">{r.fixed}</td><td class="num">{r.new}</td><td class="num">{r.unchanged}</td></tr>)}</tbody></table>
      <h3>Fixed (in {short(base)}, gone in {short(head)})</h3>
      <div data-testid="fixed-list"><FindingList jobId={head} patchJob={base} params={{ change: 'fixed', since: base }} /></div>
      <h3>New (in {short(head)} only)</h3>
      <div data-testid="new-list"><FindingList jobId={head} patchJob={head} params={{ change: 'new', since: base }} /></div>
    </section>
  );
}

function App() {
  const route = useRoute();
  const teams = useData(() => token() ? get('teams') : Promise.resolve(null), []);
  if (!token()) return <main><SignIn /></main>;
  const team = teams.data?.teams?.[0]?.team;
  let view;
  if (route[0] === 'repo' && route[1]) view = <Repository repository={route[1]} />;
  else if (route[0] === 'job' && route[1] && route[2] === 'findings') view = <Findings id={route[1]} />;
  else if (route[0] === 'job' && route[1]) view = <Job id={route[1]} />;
  else if (route[0] === 'compare' && route[1] && route[2]) view = <Compare base={route[1]} head={route[2]} />;
  else view = team !== undefined ? <Overview team={team} /> : <Loading error={teams.error} />;
  return (
    <>
      <header><h1>hipforge</h1><nav><a href="#/">overview</a></nav>
        <span class="who" data-testid="team">team {team ?? '…'} · <a href="#/" onClick={() => { signOut(); location.reload(); }}>sign out</a></span></header>
      <main>{view}</main>
    </>
  );
}

takeTokenFromFragment();
// A #token= link followed inside an open dashboard is a same-document navigation: take the token and start
// over, so no view keeps data read with the previous one.
window.addEventListener('hashchange', () => {
  if (/(?:^#|&)token=/.test(location.hash)) { takeTokenFromFragment(); location.reload(); }
});
render(<App />, document.getElementById('app')!);
