// Batch verification: a CSV of inputs for one API, run by the run_batch job (README 'Batch
// verification'). A batch is polled while it runs and stops being polled when it ends.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiBlob, type Paged } from '@/lib/api-client';
import { portalKeys } from './keys';

export type Batch = {
  id: number;
  service: string;
  sandbox: boolean;
  file_name: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | string;
  total_rows: number;
  done_rows: number;
  charged_rows: number;
  failed_rows: number;
  charged_paise: number;
  job_id: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
};

export const BATCHES_PAGE_SIZE = 10;
/** The api's limit (domain::batches::MAX_FILE_BYTES), checked before the upload too. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
export const POLL_MS = 1_000;

export const isRunning = (b: Pick<Batch, 'status'>) => b.status === 'queued' || b.status === 'running';

export function useBatches(page: number) {
  return useQuery({
    queryKey: portalKeys.batches(page),
    queryFn: () => api.get<Paged<Batch>>('/me/batches', { auth: 'user', params: { page, per_page: BATCHES_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    // The list follows running batches too, until none runs.
    refetchInterval: (q) => ((q.state.data?.items ?? []).some(isRunning) ? POLL_MS : false),
  });
}

export function useBatch(id: number | null) {
  return useQuery({
    queryKey: portalKeys.batch(id ?? 0),
    queryFn: () => api.get<Batch>(`/me/batches/${id}`, { auth: 'user' }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && !isRunning(q.state.data) ? false : POLL_MS),
  });
}

export type SubmitBatch = { service: string; mode: 'live' | 'sandbox'; file: File };

export function useSubmitBatch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ service, mode, file }: SubmitBatch) =>
      api.post<Batch>('/me/batches', file, { auth: 'user', params: { service, mode, file_name: file.name } }),
    onSuccess: (b) => {
      qc.setQueryData(portalKeys.batch(b.id), b);
      void qc.invalidateQueries({ queryKey: portalKeys.batchesAll() });
    },
  });
}

/** Saves the batch's result CSV through the browser. */
export async function downloadResult(b: Pick<Batch, 'id'>): Promise<void> {
  const blob = await apiBlob(`/me/batches/${b.id}/result`, { auth: 'user' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `batch-${b.id}-result.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
