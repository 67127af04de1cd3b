import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queueKeys } from './keys';

/**
 * Retry (back to the queue, to run now) or Discard (never run again) a failed job; Revive (back
 * to the queue, to run now) a discarded one.
 */
export type JobAction = 'retry' | 'discard' | 'revive';

export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: JobAction }) =>
      api.post<void>(`/superadmin/jobs/${encodeURIComponent(id)}/${action}`),
    onSettled: () => qc.invalidateQueries({ queryKey: queueKeys.all }),
  });
}
