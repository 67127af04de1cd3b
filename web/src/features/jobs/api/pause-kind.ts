import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queueKeys } from './keys';

/** Pause: the workers start no new job of the kind (running ones finish). Resume: they do again. */
export type KindAction = 'pause' | 'resume';

export function usePauseKind() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, action }: { kind: string; action: KindAction }) =>
      api.post<void>(`/superadmin/jobs/kinds/${encodeURIComponent(kind)}/${action}`),
    onSettled: () => qc.invalidateQueries({ queryKey: queueKeys.all }),
  });
}
