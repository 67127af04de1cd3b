import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { CatalogueApi } from './types';
import { catalogueKeys } from './keys';

/** API's: the whole catalogue, 10 per page. */
export const apisQueryOptions = (page: number) =>
  queryOptions({
    queryKey: catalogueKeys.apis(page),
    queryFn: () => api.get<Paged<CatalogueApi>>('/superadmin/apis', { params: { page, per_page: 10 } }),
    placeholderData: keepPreviousData,
  });

export function useApis(page: number) {
  return useQuery(apisQueryOptions(page));
}
