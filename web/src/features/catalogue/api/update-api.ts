import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiPayload } from './api-form';
import type { CatalogueApi } from './types';
import { catalogueKeys } from './keys';

export const updateApi = ({ id, body }: { id: number; body: ApiPayload }) => api.put<CatalogueApi>(`/superadmin/apis/${id}`, body);

export function useUpdateApi() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateApi, onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.all }) });
}
