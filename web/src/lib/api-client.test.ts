import { mockApi } from '@/testing/test-utils';
import { partnerJwt, superAdminJwt } from '@/testing/jwt';
import { ApiError, api, redirect } from './api-client';
import { setPartnerToken, setSuperAdminToken } from './auth';

describe('api client', () => {
  let to: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    to = vi.spyOn(redirect, 'to').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('sends JSON with the partner bearer token under /api/v1', async () => {
    const token = partnerJwt();
    setPartnerToken(token);
    const calls = mockApi({ 'POST /partner/plan': { status: 200, body: { ok: true } } });
    await expect(api.post('/partner/plan', { plan: 'pro' })).resolves.toEqual({ ok: true });
    expect(calls[0].url).toBe('/api/v1/partner/plan');
    const headers = calls[0].init.headers;
    expect(headers.authorization).toBe(`Bearer ${token}`);
    expect(headers['content-type']).toBe('application/json');
    expect(calls[0].init.body).toBe('{"plan":"pro"}');
  });

  it('throws an ApiError carrying code, message and fields', async () => {
    mockApi({
      'POST /partner/signup': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Bad input', fields: { email: 'invalid' } } },
      },
    });
    const err = await api.post('/partner/signup', {}, { auth: 'none' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'validation_failed', message: 'Bad input', fields: { email: 'invalid' } });
  });

  it('sends a partner to /logout on 401', async () => {
    setPartnerToken(partnerJwt());
    mockApi({ 'GET /partner/wallets': { status: 401, body: { error: { code: 'unauthorized', message: 'expired' } } } });
    await expect(api.get('/partner/wallets')).rejects.toBeInstanceOf(ApiError);
    expect(to).toHaveBeenCalledWith('/logout');
  });

  it('clears the super-admin session and goes to /superadmin/auth on 401', async () => {
    setSuperAdminToken(superAdminJwt());
    mockApi({ 'GET /superadmin/dashboard': { status: 401 } });
    await expect(api.get('/superadmin/dashboard')).rejects.toBeInstanceOf(ApiError);
    expect(sessionStorage.getItem('superadmin_auth')).toBeNull();
    expect(to).toHaveBeenCalledWith('/superadmin/auth');
  });

  it('does not redirect when a sign-in call answers 401 (wrong credentials)', async () => {
    mockApi({ 'POST /partner/login': { status: 401, body: { error: { code: 'unauthorized', message: 'Invalid email or password' } } } });
    const err = (await api.post('/partner/login', {}, { auth: 'none' }).catch((e) => e)) as ApiError;
    expect(err.message).toBe('Invalid email or password');
    expect(to).not.toHaveBeenCalled();
  });

  it('turns a network failure into the generic message', async () => {
    mockApi({ 'GET /public/plans': { network: true } });
    const err = await api.get('/public/plans').catch((e) => e);
    expect(err).toMatchObject({ code: 'network_error', message: 'Something went wrong, Try again!.' });
  });
});
