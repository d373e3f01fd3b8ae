// The dashboard's view of /api/v1 (docs/dashboard.md): every call sends the session's bearer token.
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

export class ApiError extends Error {
  constructor(public status: number, message: string) { super(message); }
}

export async function get<T = any>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, String(v));
  const url = `/api/v1/${path}${query.toString() ? '?' + query : ''}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${token() ?? ''}` } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body?.error?.message ?? response.statusText);
  return body as T;
}

// Server-Sent Events over fetch (EventSource cannot send an authorization header).
export async function watch(jobId: string, onEvent: (kind: string, data: any) => void, signal: AbortSignal) {
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
      if (data) onEvent(kind, JSON.parse(data));
    }
  }
}

export const FINAL = new Set(['JOB_STATE_SUCCEEDED', 'JOB_STATE_FAILED', 'JOB_STATE_CANCELLED']);
export const stateName = (s: string) => s.replace('JOB_STATE_', '').toLowerCase();
export const short = (id: string) => id.slice(0, 8);
