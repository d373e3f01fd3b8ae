// The dashboard's view of /api/v1 (docs/dashboard.md): every call sends the session's bearer token.
import type { Answer, ApiPath, ErrorAnswer, JobEvent, StreamEnd } from './api-types';

const TOKEN_KEY = 'hipforge.token';

export function takeTokenFromFragment(): void {
  // #token=... (scripts, links) wins over the stored one; the fragment is cleaned so it is not bookmarked.
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
  const rest = location.hash.replace(/(^#|&)token=[^&]+/, '$1').replace(/^#&/, '#');
  history.replaceState(null, '', rest === '#' || rest === '' ? '#/' : rest);
}
export const token = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const signIn = (value: string): void => sessionStorage.setItem(TOKEN_KEY, value.trim());
export const signOut = (): void => sessionStorage.removeItem(TOKEN_KEY);

// Why the last token was refused, shown by the sign-in form after the reload that drops the token.
const REFUSED_KEY = 'hipforge.token-refused';
export function refuseToken(reason: string): void {
  sessionStorage.setItem(REFUSED_KEY, reason);
  signOut();
}
export function takeRefusal(): string | null {
  const reason = sessionStorage.getItem(REFUSED_KEY);
  sessionStorage.removeItem(REFUSED_KEY);
  return reason;
}

// What is wrong with a token, in words (null: it reads this team's data).
export function tokenProblem(status: number, message: string): string | null {
  if (status === 401) return `The server refused this token (401 ${message || 'unauthenticated'}). ` +
    'Check that it was copied whole and has not been revoked or expired; `migrate-server token create` makes a new one.';
  if (status === 403) return `This token may not read the dashboard (403 ${message || 'permission denied'}): ` +
    'it needs the read scope (`--scopes read`).';
  return null;
}

// Tries a token before keeping it: the sign-in form says at once what is wrong instead of reloading.
export async function checkToken(value: string): Promise<string | null> {
  try {
    const response = await fetch('/api/v1/teams', { headers: { authorization: `Bearer ${value.trim()}` } });
    if (response.ok) return null;
    const message = await errorMessage(response);
    return tokenProblem(response.status, message) ?? `The server answered ${response.status}: ${message}`;
  } catch (e) {
    return `The server could not be reached: ${String((e as Error).message ?? e)}`;
  }
}

export class ApiError extends Error {
  constructor(public status: number, message: string) { super(message); }
}

// A refused answer's message ({"error": {"message"}}), else the status text.
async function errorMessage(response: Response): Promise<string> {
  const body = await response.json().catch(() => null) as Partial<ErrorAnswer> | null;
  return body?.error?.message ?? response.statusText;
}

// The answer's type follows from the path (api-types.ts, Answer): get(`jobs/${id}/tests`) is a TestsAnswer.
export async function get<P extends ApiPath>(path: P, params: Record<string, string | number | undefined> = {}): Promise<Answer<P>> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const url = `/api/v1/${path}${query.toString() ? '?' + query : ''}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${token() ?? ''}` } });
  const body: unknown = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, (body as Partial<ErrorAnswer>)?.error?.message ?? response.statusText);
  // The wire JSON is taken to be what docs/dashboard.md says (the server's tests hold it to that).
  return body as Answer<P>;
}

// Saves `body` as a file (a download the browser names `name`).
export function saveFile(name: string, body: string | Blob, type = 'application/octet-stream'): void {
  const blob = body instanceof Blob ? body : new Blob([body], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Downloads an API resource with the session's token (a plain link could not send the authorization header), under
// the name the server gives it (Content-Disposition), else `name`.
export async function download(path: string, name: string): Promise<void> {
  const response = await fetch(`/api/v1/${path}`, { headers: { authorization: `Bearer ${token() ?? ''}` } });
  if (!response.ok) throw new ApiError(response.status, await errorMessage(response));
  const given = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  saveFile(given ? given[1] : name, await response.blob());
}

export interface WatchHandlers {
  event: (kind: string, data: JobEvent) => void;  // kind: state, file, step, log, task
  end: (data: StreamEnd) => void;                 // the job is final; the stream closes
}

// Server-Sent Events over fetch (EventSource cannot send an authorization header).
export async function watch(jobId: string, on: WatchHandlers, signal: AbortSignal) {
  const response = await fetch(`/api/v1/jobs/${jobId}/events`, {
    headers: { authorization: `Bearer ${token() ?? ''}` }, signal });
  if (!response.ok || !response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = 'message', data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) kind = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (!data) continue;
      if (kind === 'end') on.end(JSON.parse(data) as StreamEnd);
      else on.event(kind, JSON.parse(data) as JobEvent);
    }
  }
}

export const FINAL = new Set(['JOB_STATE_SUCCEEDED', 'JOB_STATE_FAILED', 'JOB_STATE_CANCELLED']);
export const stateName = (s: string) => s.replace('JOB_STATE_', '').toLowerCase();
export const short = (id: string) => id.slice(0, 8);
