import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Client } from './types';
import { clientsKeys } from './keys';

/** One client: the client-details header. */
export const clientQueryOptions = (id: number) =>
  queryOptions({
    queryKey: clientsKeys.detail(id),
    queryFn: () => api.get<Client>(`/superadmin/clients/${id}`),
  });

export function useClient(id: number | null) {
  return useQuery({ ...clientQueryOptions(id ?? 0), enabled: id !== null });
}
