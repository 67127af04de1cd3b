// Session storage of the two roles (spec part 1 §3): the partner token in
// localStorage under `auth`, the super-admin token in sessionStorage under
// `superadmin_auth`. Tokens are HS256 JWTs; we only decode them to read claims.

export const PARTNER_TOKEN_KEY = 'auth';
export const SUPERADMIN_TOKEN_KEY = 'superadmin_auth';
/** An end user's token on its partner's portal (localStorage is per origin: per sub-domain). */
export const USER_TOKEN_KEY = 'portal_auth';

export type PartnerClaims = {
  sub: string | number;
  role: 'partner';
  user_name: string;
  subdomain: string | null;
  exp: number;
};

export type UserClaims = {
  sub: string | number;
  role: 'user';
  subdomain: string;
  exp: number;
};

export type SuperAdminClaims = {
  sub: string | number;
  role: 'superadmin';
  email: string;
  exp: number;
};

export function decodeJwt<T>(token: string): T | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  } catch {
    return null;
  }
}

function isLive(claims: { exp?: number } | null): boolean {
  if (!claims) return false;
  return typeof claims.exp !== 'number' || claims.exp * 1000 > Date.now();
}

export function getPartnerToken(): string | null {
  const token = localStorage.getItem(PARTNER_TOKEN_KEY);
  if (!token) return null;
  return isLive(decodeJwt(token)) ? token : null;
}

export function getPartnerClaims(): PartnerClaims | null {
  const token = getPartnerToken();
  return token ? decodeJwt<PartnerClaims>(token) : null;
}

export function setPartnerToken(token: string): void {
  localStorage.setItem(PARTNER_TOKEN_KEY, token);
}

export function clearPartnerSession(): void {
  localStorage.removeItem(PARTNER_TOKEN_KEY);
  sessionStorage.removeItem('userName');
  sessionStorage.removeItem('subdomain');
  sessionStorage.removeItem('user-detail');
}

export function getSuperAdminToken(): string | null {
  const token = sessionStorage.getItem(SUPERADMIN_TOKEN_KEY);
  if (!token) return null;
  return isLive(decodeJwt(token)) ? token : null;
}

export function getSuperAdminClaims(): SuperAdminClaims | null {
  const token = getSuperAdminToken();
  return token ? decodeJwt<SuperAdminClaims>(token) : null;
}

export function setSuperAdminToken(token: string): void {
  sessionStorage.setItem(SUPERADMIN_TOKEN_KEY, token);
}

export function clearSuperAdminSession(): void {
  sessionStorage.removeItem(SUPERADMIN_TOKEN_KEY);
  sessionStorage.removeItem('superadmin_user');
  sessionStorage.removeItem('selected-client');
}

export function getUserToken(): string | null {
  const token = localStorage.getItem(USER_TOKEN_KEY);
  if (!token) return null;
  const claims = decodeJwt<UserClaims>(token);
  return isLive(claims) && claims?.role === 'user' ? token : null;
}

export function setUserToken(token: string): void {
  localStorage.setItem(USER_TOKEN_KEY, token);
}

export function clearUserSession(): void {
  localStorage.removeItem(USER_TOKEN_KEY);
}

// Logout also ends the session on the server (POST …/logout), so a copied token stops working
// too. The page does not wait for the answer: an already ended session or a lost connection
// changes nothing for the browser, whose copy is removed either way.
function endServerSession(path: string, token: string | null): void {
  if (!token) return;
  fetch(path, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, keepalive: true }).catch(() => {});
}

export function logoutPartner(): void {
  endServerSession('/api/v1/partner/logout', localStorage.getItem(PARTNER_TOKEN_KEY));
  clearPartnerSession();
}

export function logoutSuperAdmin(): void {
  endServerSession('/api/v1/superadmin/logout', sessionStorage.getItem(SUPERADMIN_TOKEN_KEY));
  clearSuperAdminSession();
}

export function logoutUser(): void {
  endServerSession('/api/v1/me/logout', localStorage.getItem(USER_TOKEN_KEY));
  clearUserSession();
}
