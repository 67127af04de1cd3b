import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type SuperAdminMe = { email: string };

export const superAdminMeQueryOptions = () =>
  queryOptions({
    queryKey: ['superadmin', 'me'],
    queryFn: () => api.get<SuperAdminMe>('/superadmin/me'),
    staleTime: 5 * 60_000,
  });

export function useSuperAdminMe() {
  return useQuery(superAdminMeQueryOptions());
}
