import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { portalKeys } from './keys';

export type KeyMode = 'live' | 'sandbox';

export type ApiKey = {
  id: number;
  prefix: string;
  mode: KeyMode;
  status: 'active' | 'revoked' | 'expired';
  created_at: string;
  last_used_at: string | null;
  /** Set by a roll: the gateway refuses the key from then on. */
  expires_at: string | null;
};

/** The clear key is in this answer only. */
export type CreatedKey = { id: number; key: string; prefix: string; mode: KeyMode };

export const listKeys = () => api.get<ApiKey[]>('/me/api-keys', { auth: 'user' });

export function useApiKeys() {
  return useQuery({ queryKey: portalKeys.apiKeys(), queryFn: listKeys });
}

function useKeyMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: portalKeys.apiKeys() }) });
}

export const createKeySchema = z.object({ mode: z.enum(['live', 'sandbox'], { errorMap: () => ({ message: 'Choose live or sandbox' }) }) });

export function useCreateKey() {
  return useKeyMutation((input: z.infer<typeof createKeySchema>) => api.post<CreatedKey>('/me/api-keys', input, { auth: 'user' }));
}

export function useRevokeKey() {
  return useKeyMutation((id: number) => api.delete<void>(`/me/api-keys/${id}`, { auth: 'user' }));
}

/** The grace period of a roll: whole minutes, 0 to a week (the API's bounds). */
export const GRACE_MAX_MINUTES = 10_080;

export const rollKeySchema = z.object({
  grace_minutes: z.coerce
    .number({ invalid_type_error: 'Enter the grace period in minutes' })
    .int('Enter whole minutes')
    .min(0, 'The grace period cannot be negative')
    .max(GRACE_MAX_MINUTES, 'The grace period can be at most a week (10080 minutes)'),
});

export function useRollKey() {
  return useKeyMutation(({ id, grace_minutes }: { id: number; grace_minutes: number }) =>
    api.post<CreatedKey>(`/me/api-keys/${id}/roll`, { grace_minutes }, { auth: 'user' }),
  );
}
