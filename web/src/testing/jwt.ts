// Unsigned test tokens: the app only decodes JWTs, it never verifies them.
const b64 = (o: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))))
   .replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

export function fakeJwt(payload: Record<string, unknown>, ttlSeconds = 3600): string {
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ exp: Math.floor(Date.now() / 1000) + ttlSeconds, ...payload })}.sig`;
}

export const partnerJwt = (over: Record<string, unknown> = {}) =>
  fakeJwt({ sub: 'p1', role: 'partner', user_name: 'acme', subdomain: 'acme', ...over });

export const superAdminJwt = (over: Record<string, unknown> = {}) =>
  fakeJwt({ sub: 's1', role: 'superadmin', email: 'root@platform.test', ...over });

export const userJwt = (over: Record<string, unknown> = {}) => fakeJwt({ sub: 7, role: 'user', subdomain: 'demo', ...over });
