// Pieces every page uses: the hash route, data loading, links and badges.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, refuseToken, stateName, tokenProblem } from './api';
import type { JobWithSummary, Report } from './api-types';
import { verdictOf } from './model';

export interface Route { path: string[]; query: URLSearchParams }

// "#/job/ID/findings?severity=error" -> { path: ['job', 'ID', 'findings'], query: severity=error }
export function useRoute(): Route {
  const parse = (): Route => {
    const [path, query = ''] = location.hash.replace(/^#\/?/, '').split('?');
    return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
  };
  const [route, setRoute] = useState(parse());
  useEffect(() => {
    const on = () => setRoute(parse());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

// Loads `load()` whenever `deps` change; errors are shown. Data loaded for other deps is never returned (no stale
// rows under new filters while the next answer is on its way). A refused token (401) goes back to sign-in, which
// says why (never silently).
export function useData<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string } {
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ key?: string; data?: T; error?: string }>({});
  useEffect(() => {
    let live = true;
    load().then((data) => live && setState({ key, data }), (e) => {
      if (e instanceof ApiError && e.status === 401) {
        refuseToken(tokenProblem(401, e.message)!);
        location.reload();
        return;
      }
      if (live) setState({ key, error: e instanceof ApiError ? tokenProblem(e.status, e.message) ?? e.message : String(e.message ?? e) });
    });
    return () => { live = false; };
  }, [key]);
  return state.key === key ? { data: state.data, error: state.error } : {};
}

export const link = (...parts: string[]) => '#/' + parts.map(encodeURIComponent).join('/');

export const Badge = ({ value, testid, label }: { value: string; testid?: string; label?: string }) =>
  <span class={`badge ${value}`} data-testid={testid}>{label ?? (value.startsWith('JOB_STATE_') ? stateName(value) : value)}</span>;

export const Loading = ({ error }: { error?: string }) =>
  error ? <div class="error-box" data-testid="error">{error}</div> : <p class="muted">loading…</p>;

export const num = (v: number | null | undefined, digits = 0) => v === null || v === undefined ? '—' : v.toFixed(digits);

// `gate` is missing for a repository without a finished job.
export function Gate({ gate }: { gate: Report.Gate | undefined }) {
  if (!gate) return <span class="muted">no finished job</span>;
  return <span data-testid="gate"><Badge value={gate.status} testid="gate-status" />{' '}
    {gate.blocking.length > 0 && <span data-testid="gate-blocking">blocked by {gate.blocking.join(', ')}</span>}</span>;
}

// The verdict's level as a badge; the title carries what was not proved.
export function VerdictBadge({ job, testid }: { job: JobWithSummary | null; testid?: string }) {
  if (!job) return <span class="muted">—</span>;
  const v = verdictOf(job);
  const title = [v.headline, ...v.notProved.map((n) => `not proved: ${n}`)].join('\n');
  return <span class={`badge verdict-${v.level}`} data-testid={testid} data-level={v.level} title={title}>{v.level.replace('_', ' ')}</span>;
}
