import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { ApiPayload } from './api-form';
import type { CatalogueApi } from './types';
import { catalogueKeys } from './keys';

export const createApi = (body: ApiPayload) => api.post<CatalogueApi>('/superadmin/apis', body);

export function useCreateApi() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createApi, onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.all }) });
}
