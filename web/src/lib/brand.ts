/** The platform's own name, shown on pages that belong to no partner. */
export const PLATFORM_NAME: string = import.meta.env.VITE_PLATFORM_NAME ?? 'KYC Whitelabel';

/** The domain partner sites live under: `{subdomain}.{PLATFORM_DOMAIN}`. */
export function platformDomain(): string {
  return import.meta.env.VITE_PLATFORM_DOMAIN ?? window.location.hostname;
}

/**
 * A partner's name for headers and running text: its page title without the ' - Home' that the
 * wizard puts there by default (that suffix is for the browser tab).
 */
export function brandName(title: string | null | undefined): string {
  return (title ?? '').replace(/ - Home$/, '');
}
