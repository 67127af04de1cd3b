import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/api-client';
import { jobState, useJob } from '@/lib/jobs';
import { rupeeField } from '@/lib/money';
import type { PlanType } from './plan-types';
import { plansKeys } from './keys';

export type SlabPriceChange = { service: string; price_paise: number };
/** One price is applied at once (200); a list runs the bulk_update_prices job (202). */
export type SaveSlabResult = { changed: number } | { job_id: string };

/** The inline price field of the Plans table (rupees). */
export const slabPriceField = rupeeField({
  required: 'Price is required',
  number: 'Price must be a number',
  negative: 'Price cannot be negative',
});

export const saveSlabPrices = ({ plan, prices }: { plan: PlanType; prices: SlabPriceChange[] }) =>
  api.put<SaveSlabResult>(`/superadmin/plans/${plan}/prices`, { prices });

/**
 * Saves slab prices. When the server queues a job (many prices), the job is polled until it
 * settles and the list is refreshed then; `job` says where it is.
 */
export function useSaveSlabPrices(plan: PlanType) {
  const qc = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const job = useJob(jobId, 'superadmin');
  const state = jobId ? jobState(job.data) : null;

  useEffect(() => {
    if (state === 'done' || state === 'failed') qc.invalidateQueries({ queryKey: plansKeys.slab(plan) });
  }, [state, plan, qc]);

  const mutation = useMutation({
    mutationFn: saveSlabPrices,
    onSuccess: (r) => {
      if ('job_id' in r) setJobId(r.job_id);
      else qc.invalidateQueries({ queryKey: plansKeys.slab(plan) });
    },
  });

  const clearJob = useCallback(() => setJobId(null), []);
  return { mutation, job: state, jobError: job.data?.last_error ?? null, clearJob };
}
