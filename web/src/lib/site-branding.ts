import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';
import type { Theme } from '@/lib/theme';

export type SiteBranding = {
  subdomain: string;
  title: string;
  description: string;
  logo_url: string | null;
  favicon_url: string | null;
  theme: Theme;
  /** The super admin's Batch Processing for this partner: its users' portal offers batch verification. */
  batch_processing: boolean;
};

/** The branding of the partner site this page is served on (by Host); null on the platform's own (204). */
export async function getSiteBranding(): Promise<SiteBranding | null> {
  try {
    const b = await api.get<SiteBranding>('/public/branding', { auth: 'none' });
    return b && typeof b.title === 'string' ? b : null;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export const siteBrandingKeys = { all: ['site-branding'] as const };

export function useSiteBranding() {
  return useQuery({ queryKey: siteBrandingKeys.all, queryFn: getSiteBranding, staleTime: 5 * 60_000 });
}
