import { partnerJwt, fakeJwt } from '@/testing/jwt';
import { afterEach, vi } from 'vitest';
import {
  decodeJwt,
  getPartnerClaims,
  getPartnerToken,
  getSuperAdminToken,
  logoutPartner,
  logoutSuperAdmin,
  setPartnerToken,
  setSuperAdminToken,
} from './auth';

describe('auth storage', () => {
  it('keeps the partner token in localStorage under auth', () => {
    const t = partnerJwt();
    setPartnerToken(t);
    expect(localStorage.getItem('auth')).toBe(t);
    expect(getPartnerClaims()).toMatchObject({ role: 'partner', user_name: 'acme', subdomain: 'acme' });
  });

  it('keeps the super-admin token in sessionStorage under superadmin_auth', () => {
    const t = fakeJwt({ role: 'superadmin', email: 'a@b.c' });
    setSuperAdminToken(t);
    expect(sessionStorage.getItem('superadmin_auth')).toBe(t);
    expect(getSuperAdminToken()).toBe(t);
  });

  it('ignores an expired token', () => {
    setPartnerToken(partnerJwt({ exp: Math.floor(Date.now() / 1000) - 10 }));
    expect(getPartnerToken()).toBeNull();
  });

  it('decodes url-safe base64 with unicode', () => {
    expect(decodeJwt<{ n: string }>(fakeJwt({ n: 'Ünïcødé' }))?.n).toBe('Ünïcødé');
    expect(decodeJwt('garbage')).toBeNull();
  });
});

describe('logout', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('ends the session on the server with its token, then forgets it', () => {
    const fetch = vi.fn(() => Promise.reject(new Error('offline')));
    vi.stubGlobal('fetch', fetch);
    const p = partnerJwt();
    setPartnerToken(p);
    logoutPartner();
    const s = fakeJwt({ role: 'superadmin', email: 'a@b.c' });
    setSuperAdminToken(s);
    logoutSuperAdmin();
    expect(fetch.mock.calls).toEqual([
      ['/api/v1/partner/logout', { method: 'POST', headers: { Authorization: `Bearer ${p}` }, keepalive: true }],
      ['/api/v1/superadmin/logout', { method: 'POST', headers: { Authorization: `Bearer ${s}` }, keepalive: true }],
    ]);
    expect(getPartnerToken()).toBeNull();
    expect(getSuperAdminToken()).toBeNull();
    // Nothing to end without a token.
    logoutPartner();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
