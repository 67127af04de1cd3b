// The partner's own landing page for its end users: its title, description and colours, the
// APIs it offers at the price a new user pays, its contact details, Sign in and (when allowed)
// Sign up.
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { brandName } from '@/lib/brand';
import { formatRupees } from '@/lib/format';
import type { PublicPortal, SiteApi } from '../api/types';
import { portalPaths } from '../paths';
import { SiteFooter, SiteHeader } from './site-frame';

/** The APIs by category, categories and names in alphabetical order. */
export function byCategory(apis: SiteApi[]): [string, SiteApi[]][] {
  const groups = new Map<string, SiteApi[]>();
  for (const a of apis) groups.set(a.category, [...(groups.get(a.category) ?? []), a]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, list]) => [c, [...list].sort((x, y) => x.name.localeCompare(y.name))]);
}

export function PortalLanding({ site }: { site: PublicPortal }) {
  const name = brandName(site.title);
  const [search, setSearch] = useState('');
  const groups = useMemo(() => {
    const q = search.trim().toLowerCase();
    const hit = (a: SiteApi) => !q || a.name.toLowerCase().includes(q) || a.category.toLowerCase().includes(q);
    return byCategory(site.apis.filter(hit));
  }, [site.apis, search]);
  const { phone_number, email, address } = site.contact;
  const hasContact = !!(phone_number || email || address);

  return (
    <div className="landing portal-landing">
      <SiteHeader
        site={site}
        nav={
          <nav className="site-nav" aria-label="Sections">
            <a href="#apis">APIs and prices</a>
            {hasContact && <a href="#contact">Contact</a>}
          </nav>
        }
      />
      <main>
        <section className="hero">
          <h1>{name}</h1>
          {site.description && <p className="hero-sub">{site.description}</p>}
          <div className="hero-actions">
            {site.signup.create_account && (
              <Link to={portalPaths.signup} className="btn btn-primary">
                Create an account
              </Link>
            )}
            <Link to={portalPaths.login} className="btn btn-outline">
              Sign in
            </Link>
            {site.documentation_link && (
              <a href={site.documentation_link} className="btn btn-secondary" target="_blank" rel="noreferrer">
                Documentation
              </a>
            )}
          </div>
        </section>

        <section className="section" id="apis" aria-labelledby="apis-title">
          <h2 className="section-title" id="apis-title">
            APIs and prices
          </h2>
          {site.apis.length === 0 ? (
            <div className="empty-state">
              <p>No APIs are offered yet.</p>
            </div>
          ) : (
            <>
              <div className="field portal-search">
                <label htmlFor="api-search">Search APIs</label>
                <input id="api-search" type="text" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name or category" />
              </div>
              <p className="muted small">Prices are per successful call, in Indian rupees.</p>
              {groups.length === 0 && <p className="muted">No API matches “{search}”.</p>}
              <div className="price-groups">
                {groups.map(([category, apis]) => (
                  <section key={category} className="price-group" aria-label={category}>
                    <h3>{category}</h3>
                    <ul className="price-list">
                      {apis.map((a) => (
                        <li key={a.service}>
                          <span>{a.name}</span>
                          <strong>{formatRupees(a.price_paise)}</strong>
                        </li>
                      ))}
                    </ul>
                  </section>
                ))}
              </div>
            </>
          )}
        </section>

        {hasContact && (
          <section className="section contact-section" id="contact" aria-labelledby="contact-title">
            <h2 className="section-title" id="contact-title">
              Contact us
            </h2>
            <ContactDetails contact={site.contact} />
          </section>
        )}
      </main>
      <SiteFooter site={site} />
    </div>
  );
}

export function ContactDetails({ contact }: { contact: PublicPortal['contact'] }) {
  const { phone_number, email, address } = contact;
  if (!phone_number && !email && !address) return <p className="muted">No contact details yet.</p>;
  return (
    <dl className="contact-details">
      {phone_number && (
        <div>
          <dt>Phone</dt>
          <dd>
            <a href={`tel:${phone_number.replace(/\s+/g, '')}`}>{phone_number}</a>
          </dd>
        </div>
      )}
      {email && (
        <div>
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${email}`}>{email}</a>
          </dd>
        </div>
      )}
      {address && (
        <div>
          <dt>Address</dt>
          <dd className="pre-line">{address}</dd>
        </div>
      )}
    </dl>
  );
}
