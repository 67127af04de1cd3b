import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queueKeys } from './keys';

/** Retry (back to the queue, to run now) or Discard (never run again) a failed job. */
export type JobAction = 'retry' | 'discard';

export function useJobAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: JobAction }) =>
      api.post<void>(`/superadmin/jobs/${encodeURIComponent(id)}/${action}`),
    onSettled: () => qc.invalidateQueries({ queryKey: queueKeys.all }),
  });
}
