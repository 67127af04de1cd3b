import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type Paged } from '@/lib/api-client';
import type { Client } from './types';
import { clientsKeys } from './keys';

export const CLIENT_FILTERS = ['first_name', 'last_name', 'email', 'phone_number', 'user_id'] as const;
export type ClientFilters = Record<(typeof CLIENT_FILTERS)[number], string>;

export const clientFilterSchema = z.object({
  first_name: z.string().trim(),
  last_name: z.string().trim(),
  email: z.string().trim(),
  phone_number: z.string().trim(),
  user_id: z.string().trim().regex(/^\d*$/, 'User ID contains only numeric values.'),
});

export const hasFilters = (f: ClientFilters) => CLIENT_FILTERS.some((k) => f[k] !== '');

/** Search results are shown whole, without paging (spec part 2, §2.14). */
const SEARCH_PAGE_SIZE = 200;

/** Clients: 50 per page, or the filtered results in one list. */
export const clientsQueryOptions = (page: number, filters: ClientFilters) => {
  const searching = hasFilters(filters);
  return queryOptions({
    queryKey: clientsKeys.list({ page: searching ? 1 : page, ...filters }),
    queryFn: () =>
      api.get<Paged<Client>>('/superadmin/clients', {
        params: searching ? { ...filters, page: 1, per_page: SEARCH_PAGE_SIZE } : { page, per_page: 50 },
      }),
    placeholderData: keepPreviousData,
  });
};

export function useClients(page: number, filters: ClientFilters) {
  return useQuery(clientsQueryOptions(page, filters));
}
