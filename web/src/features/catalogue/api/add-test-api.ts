import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import type { CatalogueApi } from './types';
import { catalogueKeys } from './keys';

export const addTestApiSchema = z.object({ service: z.string().trim().min(1, 'Service Name is required') });
export type AddTestApiForm = z.input<typeof addTestApiSchema>;

/** Puts a catalogue API on the sandbox list. */
export const addTestApi = (service: string) => api.post<CatalogueApi>('/superadmin/test-apis', { service });

export function useAddTestApi() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: addTestApi, onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.all }) });
}
