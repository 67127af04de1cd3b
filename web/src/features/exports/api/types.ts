// An export as GET /api/v1/exports/{id} returns it.
export type ExportKind = 'api_transactions' | 'product_transactions' | 'api_logs' | 'product_logs' | 'wallet_entries';

export type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';

export type Export = {
  id: number;
  kind: ExportKind;
  created_at: string;
  from: string;
  to: string;
  user_id: number | null;
  status: ExportStatus;
  /** The row count once completed. */
  total_records: number | null;
  /** Rows written so far, while it runs. */
  rows_written: number;
  /** Signed download links, one per part, once completed. */
  urls: string[];
  job_id: string | null;
  error: string | null;
};

/** An export that will not change any more: polling stops. */
export const isFinished = (e: Pick<Export, 'status'> | undefined) => e?.status === 'completed' || e?.status === 'failed';

/** How often a page asks again while an export runs. */
export const POLL_MS = 1500;
