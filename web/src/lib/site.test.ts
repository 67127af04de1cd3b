import { portalSubdomain } from './site';

describe('portalSubdomain', () => {
  afterEach(() => document.head.querySelector('meta[name="portal-site"]')?.remove());

  it('reads the partner site the api named in index.html', () => {
    const meta = document.createElement('meta');
    meta.name = 'portal-site';
    meta.content = 'demo';
    document.head.appendChild(meta);
    expect(portalSubdomain(document, { hostname: 'demo.kyc.example' })).toBe('demo');
  });

  it("is the platform's own page without the marker", () => {
    expect(portalSubdomain(document, { hostname: 'kyc.example' })).toBeNull();
    expect(portalSubdomain(document, { hostname: 'localhost' })).toBeNull();
  });
});
