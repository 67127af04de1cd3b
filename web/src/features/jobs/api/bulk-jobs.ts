import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queueKeys } from './keys';
import type { BulkAction } from './states';

/** BulkRequest in api/src/routes/jobs.rs. */
export type BulkRequest = {
  action: BulkAction;
  state: string;
  /** Absent: every kind. */
  kind?: string;
  /** The count the operator confirmed: the server does nothing (409) when the set has changed. */
  expected: number;
};

/** Retry or Discard every job of a state (and kind); answers how many it changed. */
export function useBulkJobs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: BulkRequest) =>
      api.post<{ count: number }>('/superadmin/jobs/bulk', { ...req, kind: req.kind || undefined }),
    onSettled: () => qc.invalidateQueries({ queryKey: queueKeys.all }),
  });
}
