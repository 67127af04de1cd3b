import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { catalogueKeys } from './keys';

export type CatalogueSummaryItem = {
  api_id: number;
  service: string;
  name: string;
  category: string;
  pid: string;
  is_sandbox: boolean;
};

/**
 * Live APIs with their service keys: the service choices of the price forms. Any signed-in
 * role may read it, so the caller says whose session asks.
 */
export const catalogueSummaryQueryOptions = (auth: 'partner' | 'superadmin' = 'superadmin') =>
  queryOptions({
    queryKey: catalogueKeys.summary(auth),
    queryFn: () => api.get<{ items: CatalogueSummaryItem[]; categories: string[] }>('/catalogue', { auth }),
    staleTime: 5 * 60_000,
  });

export function useCatalogueSummary(auth: 'partner' | 'superadmin' = 'superadmin') {
  return useQuery(catalogueSummaryQueryOptions(auth));
}
