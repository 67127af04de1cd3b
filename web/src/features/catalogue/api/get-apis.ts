import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { CatalogueApi } from './types';
import { catalogueKeys } from './keys';

/** API's: the whole catalogue, 10 per page; `q` a part of the name, service or PID. */
export const apisQueryOptions = (page: number, q = '') =>
  queryOptions({
    queryKey: catalogueKeys.apis(page, q),
    queryFn: () => api.get<Paged<CatalogueApi>>('/superadmin/apis', { params: { page, per_page: 10, q: q.trim() || undefined } }),
    placeholderData: keepPreviousData,
  });

export function useApis(page: number, q = '') {
  return useQuery(apisQueryOptions(page, q));
}
