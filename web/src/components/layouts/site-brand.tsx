// The name or logo at the top of the public pages: the partner's on its sub-domain, the
// platform's elsewhere.
import { Link } from 'react-router';
import { PLATFORM_NAME, brandName } from '@/lib/brand';
import { useSiteBranding } from '@/lib/site-branding';

export function SiteBrand() {
  const { data } = useSiteBranding();
  const name = brandName(data?.title) || PLATFORM_NAME;
  return (
    <Link to="/" className="brand-text" aria-label={name}>
      {data?.logo_url ? <img src={data.logo_url} alt={name} className="brand-logo" /> : name}
    </Link>
  );
}

/** The name to print in running text (footer, copyright). */
export function useSiteName(): string {
  return brandName(useSiteBranding().data?.title) || PLATFORM_NAME;
}
