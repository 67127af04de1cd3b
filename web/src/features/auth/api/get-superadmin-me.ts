import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

export type SuperAdminMe = { email: string };

export const superAdminMeQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.superAdminMe(),
    queryFn: () => api.get<SuperAdminMe>('/superadmin/me'),
    staleTime: 5 * 60_000,
  });

export function useSuperAdminMe() {
  return useQuery(superAdminMeQueryOptions());
}
