import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { plansKeys } from './keys';

/** Removes a customised price: the client pays its slab's price again. */
export const deleteClientPrice = ({ clientId, service }: { clientId: number; service: string }) =>
  api.delete<void>(`/superadmin/clients/${clientId}/prices/${encodeURIComponent(service)}`);

export function useDeleteClientPrice(clientId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteClientPrice,
    onSuccess: () => qc.invalidateQueries({ queryKey: plansKeys.client(clientId) }),
  });
}
