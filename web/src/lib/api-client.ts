// The one HTTP client: same-origin /api/v1, JSON, bearer token, typed errors.
import { clearSuperAdminSession, getPartnerToken, getSuperAdminToken, getUserToken } from './auth';

export const API_BASE = '/api/v1';

/** Generic failure text used when the server gives no message (spec §8). */
export const GENERIC_ERROR = 'Something went wrong, Try again!.';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/**
 * Which session a request carries. `none` is for sign-in style calls: a 401
 * there means wrong credentials, not an expired session, so it never redirects.
 */
export type AuthScope = 'partner' | 'superadmin' | 'user' | 'none';

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a file (a Blob) sent as it is with its own type. */
  body?: unknown;
  auth?: AuthScope;
  params?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
};

function scopeFor(path: string): AuthScope {
  if (path.startsWith('/superadmin/')) return 'superadmin';
  if (path.startsWith('/public/') || path.startsWith('/auth/')) return 'none';
  if (path === '/me' || path.startsWith('/me/')) return 'user';
  return 'partner';
}

function buildUrl(path: string, params?: RequestOptions['params']): string {
  const url = API_BASE + path;
  if (!params) return url;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${url}?${s}` : url;
}

/** Where the browser goes when a signed-in call answers 401. Swappable in tests. */
export const redirect = {
  to(path: string) {
    window.location.assign(path);
  },
};

function handleUnauthorized(scope: AuthScope) {
  if (scope === 'superadmin') {
    clearSuperAdminSession();
    redirect.to('/superadmin/auth');
  } else if (scope === 'partner' || scope === 'user') {
    // /logout clears the session itself and goes on to the sign-in page (the partner's /auth
    // on the platform's address, the portal's /login on a partner's site).
    redirect.to('/logout');
  }
}

/** The answer of a call, or an ApiError with the contract's message (401 ends the session). */
async function send(path: string, opts: RequestOptions): Promise<Response> {
  const scope = opts.auth ?? scopeFor(path);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const file = opts.body instanceof Blob ? opts.body : null;
  if (opts.body !== undefined) headers['Content-Type'] = file ? file.type || 'application/octet-stream' : 'application/json';
  const token =
    scope === 'partner'
      ? getPartnerToken()
      : scope === 'superadmin'
        ? getSuperAdminToken()
        : scope === 'user'
          ? getUserToken()
          : null;
  if (token) headers.Authorization = `Bearer ${token}`;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.params), {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers,
      // A file's bytes (small files only: uploads that can be large go through lib/uploads).
      body: opts.body === undefined ? undefined : file ? await file.arrayBuffer() : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'network_error', GENERIC_ERROR);
  }

  if (!res.ok) {
    if (res.status === 401 && scope !== 'none') handleUnauthorized(scope);
    const err = (parseJson(await res.text()) as { error?: { code?: string; message?: string; fields?: Record<string, string> } })
      ?.error;
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message || GENERIC_ERROR, err?.fields ?? {});
  }
  return res;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(path, opts);
  return parseJson(await res.text()) as T;
}

/** A file the api answers to a signed-in caller (a result CSV), as a Blob. */
export async function apiBlob(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<Blob> {
  return (await send(path, opts)).blob();
}

export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'PUT', body: body ?? {} }),
  patch: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'PATCH', body: body ?? {} }),
  delete: <T>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...opts, method: 'DELETE' }),
};

/** The message to show for any thrown value. */
export function errorMessage(e: unknown, fallback = GENERIC_ERROR): string {
  if (e instanceof ApiError) return e.message || fallback;
  return fallback;
}

/** A paged list as the contract returns it. */
export type Paged<T> = { items: T[]; page: number; per_page: number; total: number; pages: number };
