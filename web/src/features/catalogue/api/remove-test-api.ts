import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { catalogueKeys } from './keys';

/** Takes an API off the sandbox list (it stays in the catalogue). */
export const removeTestApi = (id: number) => api.delete<void>(`/superadmin/test-apis/${id}`);

export function useRemoveTestApi() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: removeTestApi, onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.all }) });
}
