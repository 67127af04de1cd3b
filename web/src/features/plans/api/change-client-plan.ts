import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ClientPlan } from './get-client-plan';
import type { PlanType } from './plan-types';

/** Client details, Settings: Change Plan. */
export const changeClientPlan = ({ clientId, plan }: { clientId: number; plan: PlanType }) =>
  api.put<ClientPlan>(`/superadmin/clients/${clientId}/plan`, { plan });

export function useChangeClientPlan(clientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: changeClientPlan,
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: ['clients', clientId] });
      qc.invalidateQueries({ queryKey: ['clients', 'list'] });
    },
  });
}
