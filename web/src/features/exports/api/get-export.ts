import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type AuthScope } from '@/lib/api-client';
import { exportsKeys } from './keys';
import { isFinished, POLL_MS, type Export } from './types';

/** One export, polled until it is completed or failed; each read brings fresh links. */
export const exportQueryOptions = (id: number | null, auth?: AuthScope) =>
  queryOptions({
    queryKey: exportsKeys.detail(id ?? 0),
    queryFn: () => api.get<Export>(`/exports/${id}`, { auth }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data) ? false : POLL_MS),
  });

export function useExport(id: number | null, auth?: AuthScope) {
  return useQuery(exportQueryOptions(id, auth));
}
