import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { apiKeysKeys } from './keys';

export type KeyMode = 'live' | 'sandbox';

export type ApiKey = {
  id: number;
  prefix: string;
  mode: KeyMode;
  status: 'active' | 'revoked' | 'expired';
  created_at: string;
  last_used_at: string | null;
  expires_at?: string | null;
};

/** The clear key is in this answer only. */
export type CreatedKey = { id: number; key: string; prefix: string; mode: KeyMode };

const path = (userId: number) => `/partner/users/${userId}/api-keys`;

/** The user's keys, newest first, as one page (the server answers them whole). */
export const userKeysQueryOptions = (userId: number) =>
  queryOptions({
    queryKey: apiKeysKeys.user(userId),
    queryFn: () => api.get<ApiKey[]>(path(userId)),
    select: (items: ApiKey[]) => ({ items, pages: 1 }),
  });

export function useUserKeys(userId: number) {
  return useQuery(userKeysQueryOptions(userId));
}

export const createKeySchema = z.object({ mode: z.enum(['live', 'sandbox'], { errorMap: () => ({ message: 'Choose live or sandbox' }) }) });

function useKeyMutation<I, O>(userId: number, fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: apiKeysKeys.user(userId) }) });
}

export function useCreateUserKey(userId: number) {
  return useKeyMutation(userId, (input: z.infer<typeof createKeySchema>) => api.post<CreatedKey>(path(userId), input));
}

export function useRevokeUserKey(userId: number) {
  return useKeyMutation(userId, (keyId: number) => api.delete<void>(`${path(userId)}/${keyId}`));
}
