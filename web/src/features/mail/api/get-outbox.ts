import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Paged } from '@/lib/api-client';
import { mailKeys } from './keys';

export type OutboxEntry = { id: string; to: string; subject: string; at: string | null };

export const OUTBOX_PAGE_SIZE = 50;

export const outboxQueryOptions = (page: number) =>
  queryOptions({
    queryKey: mailKeys.list(page),
    queryFn: () => api.get<Paged<OutboxEntry>>('/superadmin/mail', { params: { page, per_page: OUTBOX_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    // New mail arrives while the page is open (a sign-up, a low-balance alert).
    refetchInterval: 5000,
    retry: false,
  });

export function useOutbox(page: number) {
  return useQuery(outboxQueryOptions(page));
}
