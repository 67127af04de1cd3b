import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { authKeys } from './keys';

export const verifyEmail = (token: string) =>
  api.post<unknown>('/partner/verify-email', { token }, { auth: 'none' });

/** Runs once per token (a query, so React's double effects do not post twice). */
export function useVerifyEmail(token: string) {
  return useQuery({
    queryKey: authKeys.verifyEmail(token),
    queryFn: () => verifyEmail(token).then(() => true),
    retry: false,
    staleTime: Infinity,
  });
}
