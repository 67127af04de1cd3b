// The frame of the portal's public pages (landing, sign-in, sign-up, password pages): the
// partner's logo or name, its Sign in / Sign up links, and its copyright line. Never the
// platform's offer to partners: these pages are the partner's own.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { brandName } from '@/lib/brand';
import type { PublicPortal } from '../api/types';
import { portalPaths } from '../paths';

export function SiteLogo({ site }: { site: PublicPortal }) {
  const name = brandName(site.title);
  return (
    <Link to={portalPaths.home} className="brand-text" aria-label={`${name} home`}>
      {site.logo_url ? <img src={site.logo_url} alt={name} className="brand-logo" /> : name}
    </Link>
  );
}

export function SiteHeader({ site, nav }: { site: PublicPortal; nav?: ReactNode }) {
  return (
    <header className="site-header portal-header">
      <SiteLogo site={site} />
      {nav}
      <div className="site-actions">
        <Link to={portalPaths.login} className="btn btn-outline">
          Sign in
        </Link>
        {site.signup.create_account && (
          <Link to={portalPaths.signup} className="btn btn-primary">
            Sign up
          </Link>
        )}
      </div>
    </header>
  );
}

/** The partner's copyright text, else its name with the year. */
export function copyrightLine(site: PublicPortal, year = new Date().getFullYear()): string {
  return site.signup.copyright.trim() || `© ${year} ${brandName(site.title)}`;
}

export function SiteFooter({ site }: { site: PublicPortal }) {
  return (
    <footer className="portal-footer">
      <nav aria-label="Policies" className="portal-footer-links">
        <Link to="/privacy-policy">Privacy policy</Link>
        <Link to="/terms-and-conditions">Terms and conditions</Link>
        <Link to="/cancellation-policy">Cancellation policy</Link>
      </nav>
      <p>{copyrightLine(site)}</p>
    </footer>
  );
}

/** Sign-in, sign-up and the password pages: one card under the partner's header. */
export function SiteCard({ site, title, children }: { site: PublicPortal; title: string; children: ReactNode }) {
  return (
    <div className="auth-page">
      <header className="auth-header">
        <SiteLogo site={site} />
      </header>
      <main className="auth-main">
        <div className="card auth-card">
          <h1>{title}</h1>
          {children}
        </div>
      </main>
      <SiteFooter site={site} />
    </div>
  );
}
