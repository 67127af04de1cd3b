import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, type AuthScope, type Paged } from '@/lib/api-client';
import { exportsKeys, type ExportsFilter } from './keys';
import { isFinished, POLL_MS, type Export } from './types';

/** The caller's exports, newest first, 50 per page; polled while any on the page still runs. */
export const exportsQueryOptions = (filter: ExportsFilter, page: number, auth?: AuthScope) =>
  queryOptions({
    queryKey: exportsKeys.list(filter, page),
    queryFn: () =>
      api.get<Paged<Export>>('/exports', { auth, params: { kind: filter.kind, user_id: filter.userId, page, per_page: 50 } }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((e) => !isFinished(e)) ? POLL_MS : false),
  });

export function useExports(filter: ExportsFilter, page: number, auth?: AuthScope) {
  return useQuery(exportsQueryOptions(filter, page, auth));
}
