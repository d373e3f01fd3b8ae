// hipforge team dashboard: overview -> repository -> job -> findings -> compare, rule docs (hash routes).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { checkToken, get, signIn, signOut, short, takeRefusal, takeTokenFromFragment, token } from './api';
import { ChartView } from './charts';
import { Compare, Findings } from './findings';
import { Job } from './job';
import { Markdown } from './markdown';
import { filtersFromQuery, portfolioOrder, trendLabel, trendOf } from './model';
import type { JobWithSummary, JobsAnswer, RepositoryRow } from './api-types';
import { Badge, Gate, Loading, VerdictBadge, link, num, useData, useRoute } from './ui';

// A token is tried before it is kept; a token refused later (or from a #token= link) comes back here with why.
function SignIn() {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(() => takeRefusal());
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    const why = value.trim() ? await checkToken(value) : 'Paste a token first.';
    setBusy(false);
    if (why) { setProblem(why); return; }
    signIn(value);
    location.reload();
  };
  return (
    <form class="signin" data-testid="signin" onSubmit={submit}>
      <h2>Sign in</h2>
      {problem && <div class="error-box" data-testid="signin-error" role="alert">{problem}</div>}
      <p class="muted">Paste an API token with the read scope (<code>migrate-server token create --scopes read</code>).
        It is kept for this browser session only.</p>
      <input type="password" name="token" placeholder="API token" value={value}
             onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled={busy}>{busy ? 'checking…' : 'Sign in'}</button>
    </form>
  );
}

// Every page of the team's repositories (the API pages by name; the portfolio sorts them all by what needs work).
async function allRepositories(team: string): Promise<RepositoryRow[]> {
  const out: RepositoryRow[] = [];
  for (let page_token = ''; ;) {
    const page = await get(`teams/${encodeURIComponent(team)}/repositories`, { page_size: 500, page_token });
    out.push(...page.repositories);
    if (!(page_token = page.next_page_token)) return out;
  }
}

// The lead's portfolio: one row per repository, what needs work first (model.portfolioOrder).
function Overview({ team }: { team: string }) {
  const { data, error } = useData(() => allRepositories(team), [team]);
  if (!data) return <Loading error={error} />;
  const findings = (job: JobWithSummary, query: string) => link('job', job.id, 'findings') + query;
  return (
    <section>
      <h2>Team {team}: portfolio</h2>
      <p class="muted small">Latest finished job of each repository; what needs work first (failed gate, nothing proved, open errors,
        open warnings that may compute wrong, getting worse). Trend: against the finished job before it.</p>
      <table data-testid="repositories">
        <thead><tr><th>repository</th><th class="num">jobs</th><th>latest job</th><th>verdict (latest finished job)</th><th>gate</th>
          <th class="num">open errors</th><th class="num">may compute wrong</th><th>trend</th><th class="num">effort h</th></tr></thead>
        <tbody>
          {portfolioOrder(data).map((r) => {
            const trend = trendOf(r.gate_job, r.previous_gate_job);
            return (
              <tr data-testid="repository-row" data-repository={r.repository}>
                <td><a href={link('repo', r.repository)}>{r.repository}</a></td>
                <td class="num">{r.jobs}</td>
                <td><a href={link('job', r.latest_job.id)}>{short(r.latest_job.id)}</a> <Badge value={r.latest_job.state} /></td>
                <td><VerdictBadge job={r.gate_job} testid="repository-verdict" /></td>
                <td><Gate gate={r.gate_job?.summary.gate} /></td>
                <td class="num" data-testid="open-errors">{r.gate_job
                  ? <a href={findings(r.gate_job, '?open=1&severity=error')} title="errors needing a person">{r.gate_job.summary.open_errors}</a> : '—'}</td>
                <td class="num" data-testid="open-warnings">{r.gate_job
                  ? <a href={findings(r.gate_job, '?open=1&severity=warning')} title="warnings needing a person: may compute wrong on AMD">{r.gate_job.summary.open_warnings}</a> : '—'}</td>
                <td data-testid="trend" data-direction={trend.direction} title={trend.why} class={`trend trend-${trend.direction}`}>
                  {trend.arrow} {trend.direction === 'first' ? 'no earlier job' : trend.direction}</td>
                <td class="num">{num(r.gate_job?.summary.engineer_hours, 1)}</td>
              </tr>);
          })}
        </tbody>
      </table>
      {data.length === 0 && <p class="muted">No jobs yet: <code>migrate-cli submit ./repo</code>.</p>}
    </section>
  );
}

// x-axis: each job's date (UTC) and commit, oldest first.
function Trends({ repository }: { repository: string }) {
  const { data, error } = useData(() => get('trends', { repository, limit: 50 }), [repository]);
  if (!data) return <Loading error={error} />;
  const points = data.points;
  const labels = points.map(trendLabel);
  const line = (label: string, values: (number | null)[], color: string) =>
    ({ label, data: values, borderColor: color, backgroundColor: color, spanGaps: true });
  const x = { scales: { x: { title: { display: true, text: 'job date (UTC) · commit' } } } };
  return (
    <div class="charts" data-testid="trends" data-labels={JSON.stringify(labels.map((l) => l.join(' ')))}>
      <ChartView testid="trend-findings" config={{ type: 'line', data: { labels, datasets: [
        line('open errors', points.map((p) => p.summary.open_errors), '#c62828'),
        line('warnings', points.map((p) => p.summary.warnings), '#b26a00'),
        line('all findings', points.map((p) => p.summary.findings), '#4a6fa5')] },
        options: { ...x, plugins: { title: { display: true, text: 'Findings' } } } }} />
      <ChartView testid="trend-effort" config={{ type: 'line', data: { labels, datasets: [
        line('engineer hours left', points.map((p) => p.summary.engineer_hours), '#8b1e3f')] },
        options: { ...x, plugins: { title: { display: true, text: 'Effort burn-down' } } } }} />
      <ChartView testid="trend-verdicts" config={{ type: 'bar', data: { labels, datasets: [
        { label: 'builds ok', data: points.map((p) => p.summary.builds_ok), backgroundColor: '#1a7f37' },
        { label: 'builds failed', data: points.map((p) => p.summary.builds_failed), backgroundColor: '#c62828' },
        { label: 'tests failed', data: points.map((p) => p.summary.tests_failed), backgroundColor: '#e57373' },
        { label: 'parity mismatches', data: points.map((p) => p.summary.parity_mismatch), backgroundColor: '#b26a00' }] },
        options: { ...x, plugins: { title: { display: true, text: 'Verdicts' } } } }} />
      <ChartView testid="trend-kernel-ratio" config={{ type: 'line', data: { labels, datasets: [
        line('HIP / CUDA kernel time', points.map((p) => p.summary.kernel_time_ratio), '#1f5fbf')] },
        options: { ...x, plugins: { title: { display: true, text: 'Kernel time ratio (lower is better)' } } } }} />
    </div>
  );
}

function JobTable({ jobs, onPick, picked }: { jobs: JobWithSummary[]; onPick?: (id: string) => void; picked?: string[] }) {
  return (
    <table data-testid="jobs">
      <thead><tr>{onPick && <th>compare</th>}<th>job</th><th>state</th><th>verdict</th><th>branch</th><th>commit</th><th>created</th>
        <th class="num">findings</th><th class="num">open errors</th><th>gate</th></tr></thead>
      <tbody>{jobs.map((j) => (
        <tr data-testid="job-row" data-job={j.id}>
          {onPick && <td><input type="checkbox" data-testid="pick" checked={picked?.includes(j.id)} onChange={() => onPick(j.id)} /></td>}
          <td><a href={link('job', j.id)}>{short(j.id)}</a> {j.spec.name}</td>
          <td><Badge value={j.state} /></td><td><VerdictBadge job={j} testid="job-verdict" /></td>
          <td>{j.spec.branch}</td><td><code>{j.spec.commit.slice(0, 10)}</code></td>
          <td>{j.created_at.replace('T', ' ').slice(0, 19)}</td>
          <td class="num" data-testid="job-findings">{j.summary.findings}</td><td class="num">{j.summary.open_errors}</td>
          <td><Gate gate={j.summary.gate} /></td>
        </tr>))}
      </tbody>
    </table>
  );
}

function Repository({ repository }: { repository: string }) {
  const [pages, setPages] = useState<JobsAnswer[]>([]);
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

// docs/rules/<id>.md as served next to the UI (no token needed), rendered.
function RuleDoc({ id }: { id: string }) {
  const { data, error } = useData(async () => {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`no rule ${id}`);
    const response = await fetch(`rules/${id}.md`);
    if (!response.ok) throw new Error(`no documentation for rule ${id} (${response.status})`);
    return response.text();
  }, [id]);
  return (
    <section class="rule-doc" data-testid="rule-doc-page" data-rule={id}>
      <p><a href="javascript:history.back()">← back</a> · <a href={`rules/${id}.md`} data-testid="rule-source">Markdown source</a></p>
      {data === undefined ? <Loading error={error} /> : <Markdown source={data} />}
    </section>
  );
}

function App() {
  const { path: route, query } = useRoute();
  const teams = useData(() => token() ? get('teams') : Promise.resolve(null), []);
  if (!token()) return <main><SignIn /></main>;
  const team = teams.data?.teams?.[0]?.team;
  let view;
  if (route[0] === 'repo' && route[1]) view = <Repository repository={route[1]} />;
  else if (route[0] === 'job' && route[1] && route[2] === 'findings') view = <Findings id={route[1]} filters={filtersFromQuery(query)} />;
  else if (route[0] === 'job' && route[1]) view = <Job id={route[1]} />;
  else if (route[0] === 'compare' && route[1] && route[2]) view = <Compare base={route[1]} head={route[2]} />;
  else if (route[0] === 'rule' && route[1]) view = <RuleDoc id={route[1]} />;
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
