import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clientsKeys } from './keys';

/** The super-admin dashboard's four counts (spec part 2 §2.13). */
export type SuperAdminDashboard = {
  total_users: number;
  total_transactions: number;
  accessed_products: number;
  current_credits_paise: number;
};

export const superAdminDashboardQueryOptions = () =>
  queryOptions({
    queryKey: clientsKeys.dashboard(),
    queryFn: () => api.get<SuperAdminDashboard>('/superadmin/dashboard'),
  });

export function useSuperAdminDashboard() {
  return useQuery(superAdminDashboardQueryOptions());
}
