import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ClientPlan } from './get-client-plan';
import { plansKeys } from './keys';
import type { PlanType } from './plan-types';

/** Client details, Settings: Change Plan. */
export const changeClientPlan = ({ clientId, plan }: { clientId: number; plan: PlanType }) =>
  api.put<ClientPlan>(`/superadmin/clients/${clientId}/plan`, { plan });

export function useChangeClientPlan(clientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changeClientPlan,
    // The clients feature's copies (header, list) are refreshed by the caller's onChanged.
    onSuccess: () => qc.invalidateQueries({ queryKey: plansKeys.client(clientId) }),
  });
}
