import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { catalogueKeys } from './keys';

export const deleteApi = (id: number) => api.delete<void>(`/superadmin/apis/${id}`);

export function useDeleteApi() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteApi, onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.all }) });
}
