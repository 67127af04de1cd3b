import { queryOptions, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { portalKeys } from './keys';
import type { PublicPortal } from './types';

/** The partner site this page is served on (by Host): branding, switches, contact and prices. */
export const getSite = () => api.get<PublicPortal>('/public/portal', { auth: 'none' });

export const siteQueryOptions = () => queryOptions({ queryKey: portalKeys.site(), queryFn: getSite, staleTime: 5 * 60_000 });

export function useSite() {
  return useQuery(siteQueryOptions());
}

/** The site under a route the portal's root has already loaded it for (PortalRoot). */
export function useLoadedSite(): PublicPortal {
  return useSuspenseQuery(siteQueryOptions()).data;
}
