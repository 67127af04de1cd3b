import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import type { CatalogueApi } from './types';
import { catalogueKeys } from './keys';

/** Test API's: the catalogue entries callable with a sandbox key, 10 per page. */
export const testApisQueryOptions = (page: number) =>
  queryOptions({
    queryKey: catalogueKeys.testApis(page),
    queryFn: () => api.get<Paged<CatalogueApi>>('/superadmin/test-apis', { params: { page, per_page: 10 } }),
    placeholderData: keepPreviousData,
  });

export function useTestApis(page: number) {
  return useQuery(testApisQueryOptions(page));
}
