// The static parts of the landing page (spec part 1 §1 and "Landing page").
import { Link } from 'react-router';
import { SiteBrand, useSiteName } from '@/components/layouts/site-brand';

export function SiteHeader() {
  return (
    <header className="site-header">
      <SiteBrand />
      <nav className="site-nav" aria-label="Sections">
        <a href="/#features">Features</a>
        <a href="/#pricing">Pricing</a>
        <a href="/#contact">Contact</a>
      </nav>
      <div className="site-actions">
        <Link to="/auth" className="btn btn-outline">
          Login
        </Link>
        <Link to="/signup" className="btn btn-primary">
          Sign Up
        </Link>
      </div>
    </header>
  );
}

export function Hero() {
  return (
    <section className="hero">
      <p className="hero-kicker">AI-driven onboarding solution</p>
      <h1>Your own white-label KYC API platform in under 10 minutes</h1>
      <p className="hero-sub">
        Resell 150+ identity and background-verification APIs under your brand, on your own sub-domain, with an admin
        dashboard for you and a user dashboard for your customers.
      </p>
      <div className="hero-actions">
        <a href="/#contact" className="btn btn-primary">
          Book a demo
        </a>
        <Link to="/signup" className="btn btn-outline">
          Get started
        </Link>
      </div>
    </section>
  );
}

const features = [
  { title: 'Delivery in ten minutes', text: 'Get your branded platform live in under 10 minutes.' },
  { title: '150+ verification APIs', text: 'Access to 150+ identity and background-verification APIs.' },
  { title: 'Background checks', text: 'Consent and non-consent background check for your users.' },
  { title: 'Admin dashboard', text: 'Manage your users, credits, prices and API visibility.' },
  { title: 'User dashboard', text: 'Your customers get their own dashboard on your sub-domain.' },
  { title: 'Unlimited user accounts', text: 'Onboard as many users as your business needs.' },
  { title: 'Certification badges', text: 'Show the certifications that your customers trust.' },
  { title: 'We earn only when you do', text: 'No success, no fee: we grow with your business.' },
];

export function FeatureCards() {
  return (
    <section className="section" id="features">
      <h2 className="section-title">Why resell with us</h2>
      <div className="feature-grid">
        {features.map((f) => (
          <article key={f.title} className="feature-card">
            <h3>{f.title}</h3>
            <p>{f.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

const products = [
  'Background check (consent and non-consent)',
  'Anti-money-laundering check',
  'Bank statement analyser',
  'E-signing',
  'Credit score check',
];

export function SiteFooter() {
  const siteName = useSiteName();
  return (
    <footer className="site-footer">
      <div className="footer-grid">
        <div>
          <h4>Products</h4>
          <ul>
            {products.map((p) => (
              <li key={p}>
                <a href="/#features">{p}</a>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h4>Explore</h4>
          <ul>
            <li><a href="/#features">Features</a></li>
            <li><a href="/#pricing">Pricing</a></li>
            <li><a href="/#contact">Contact us</a></li>
            <li><Link to="/signup">Sign Up</Link></li>
          </ul>
        </div>
        <div>
          <h4>Policies</h4>
          <ul>
            <li><Link to="/privacy-policy">Privacy policy</Link></li>
            <li><Link to="/terms-and-conditions">Terms and conditions</Link></li>
            <li><Link to="/cancellation-policy">Cancellation policy</Link></li>
          </ul>
        </div>
        <div>
          <h4>Contact</h4>
          <address>
            {import.meta.env.VITE_CONTACT_ADDRESS ?? 'India'}
            <br />
            <a href={`tel:${import.meta.env.VITE_CONTACT_PHONE ?? '+910000000000'}`}>{import.meta.env.VITE_CONTACT_PHONE ?? '+91 00000 00000'}</a>
            <br />
            <a href={`mailto:${import.meta.env.VITE_CONTACT_EMAIL ?? 'support@example.com'}`}>{import.meta.env.VITE_CONTACT_EMAIL ?? 'support@example.com'}</a>
          </address>
          <div className="social">
            <a href="https://www.linkedin.com" aria-label="LinkedIn">LinkedIn</a>
            <a href="https://x.com" aria-label="X">X</a>
            <a href="https://www.facebook.com" aria-label="Facebook">Facebook</a>
          </div>
        </div>
      </div>
      <p className="footer-copy">© {new Date().getFullYear()} {siteName}</p>
    </footer>
  );
}
