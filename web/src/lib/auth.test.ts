import { partnerJwt, fakeJwt } from '@/testing/jwt';
import { decodeJwt, getPartnerClaims, getPartnerToken, getSuperAdminToken, setPartnerToken, setSuperAdminToken } from './auth';

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
