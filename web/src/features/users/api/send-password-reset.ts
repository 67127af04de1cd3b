import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type ResetQueued = { job_id: string; message: string };

/** Mails the user the portal's password-reset link (a job; at most one a minute per user). */
export const sendPasswordReset = (userId: number) => api.post<ResetQueued>(`/partner/users/${userId}/password-reset`, {});

export function useSendPasswordReset() {
  return useMutation({ mutationFn: sendPasswordReset });
}
