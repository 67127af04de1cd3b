import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { PlanType } from './plan-types';
import { plansKeys } from './keys';

/** One API with what the client pays and where that price comes from. */
export type ClientPlanItem = {
  api_id: number;
  service: string;
  name: string;
  category: string;
  pid: string;
  amount_paise: number;
  amount_source: 'custom' | 'plan' | 'default' | string;
};

export type ClientPlan = {
  partner_id: number;
  plan: PlanType;
  plan_selected_at: string | null;
  customised: boolean;
  items: ClientPlanItem[];
};

/** Client details, Plan Details. */
export const clientPlanQueryOptions = (clientId: number) =>
  queryOptions({
    queryKey: plansKeys.clientPlan(clientId),
    queryFn: () => api.get<ClientPlan>(`/superadmin/clients/${clientId}/plan`),
  });

export function useClientPlan(clientId: number) {
  return useQuery(clientPlanQueryOptions(clientId));
}
