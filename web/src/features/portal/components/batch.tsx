// Batch verification: upload a CSV of inputs for one API; the run_batch job runs every row
// through the gateway (each row charged only on success). The batch's progress is polled
// while it runs, and its result CSV can be downloaded when it ends.
import type { ColumnDef } from '@tanstack/react-table';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDate, formatRupees } from '@/lib/format';
import { validate, type FieldErrors } from '@/lib/form';
import { useApis } from '../api/apis';
import { portalKeys } from '../api/keys';
import { BATCHES_PAGE_SIZE, MAX_FILE_BYTES, downloadResult, isRunning, useBatch, useBatches, useSubmitBatch, type Batch } from '../api/batches';

export const batchSchema = z.object({
  service: z.string().min(1, 'Please select an API'),
  mode: z.enum(['live', 'sandbox']),
  file: z
    .instanceof(File, { message: 'Please select a CSV file' })
    .refine((f) => /\.csv$/i.test(f.name), 'Please select a CSV file')
    .refine((f) => f.size <= MAX_FILE_BYTES, 'File size is too large. Please select a file smaller than 2MB.'),
});
type BatchInput = { service: string; mode: 'live' | 'sandbox'; file: File | null };

const STATUS_TEXT: Record<string, string> = { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed' };

export function BatchVerification() {
  const [current, setCurrent] = useState<number | null>(null);
  return (
    <>
      <BatchForm onSubmitted={setCurrent} />
      {current !== null && <BatchProgress id={current} />}
      <h2 className="tab-title">Your batches</h2>
      <BatchList />
    </>
  );
}

function BatchForm({ onSubmitted }: { onSubmitted: (id: number) => void }) {
  const apis = useApis();
  const offers = useMemo(() => [...(apis.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [apis.data]);
  const [values, setValues] = useState<BatchInput>({ service: '', mode: 'live', file: null });
  const [errors, setErrors] = useState<FieldErrors<BatchInput>>({});
  const submit = useSubmitBatch();
  const offer = offers.find((o) => o.service === values.service);
  const serverErrors = submit.error instanceof ApiError ? submit.error.fields : {};

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(batchSchema, values);
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    submit.mutate(r.data, { onSuccess: (b) => onSubmitted(b.id) });
  };

  return (
    <div className="panel">
      <p className="muted small">
        Upload a CSV file whose first row names the API&apos;s input fields, one verification per row (at most 10,000 rows and 2MB). Each row
        is charged to your API wallet at your price only when it succeeds.
      </p>
      <form className="form" noValidate aria-label="New batch" onSubmit={onSubmit}>
        <Field label="API" htmlFor="batch-service" error={errors.service}>
          <select
            id="batch-service"
            value={values.service}
            onChange={(e) => setValues((v) => ({ ...v, service: e.target.value }))}
            aria-invalid={!!errors.service}
          >
            <option value="">Select API</option>
            {offers.map((o) => (
              <option key={o.service} value={o.service}>
                {o.name} ({formatRupees(o.price_paise)})
              </option>
            ))}
          </select>
        </Field>
        {offer && (
          <p className="muted small" data-testid="batch-columns">
            Columns: {offer.required_fields.length ? offer.required_fields.map((f) => <code key={f}>{f} </code>) : 'none required'}
          </p>
        )}
        <Field label="Mode" htmlFor="batch-mode">
          <select id="batch-mode" value={values.mode} onChange={(e) => setValues((v) => ({ ...v, mode: e.target.value as BatchInput['mode'] }))}>
            <option value="live">Live</option>
            <option value="sandbox">Sandbox (sample answers)</option>
          </select>
        </Field>
        <Field label="CSV file" htmlFor="batch-file" error={errors.file ?? serverErrors.file}>
          <input
            id="batch-file"
            type="file"
            accept=".csv,text/csv"
            aria-invalid={!!(errors.file ?? serverErrors.file)}
            onChange={(e) => setValues((v) => ({ ...v, file: e.target.files?.[0] ?? null }))}
          />
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={submit.isPending}>
            {submit.isPending ? 'Wait...' : 'Start batch'}
          </button>
        </div>
      </form>
      {submit.isError && !serverErrors.file && <Alert message={{ kind: 'error', text: errorMessage(submit.error) }} />}
    </div>
  );
}

function BatchProgress({ id }: { id: number }) {
  const q = useBatch(id);
  const b = q.data;
  const ended = b !== undefined && !isRunning(b);
  const qc = useQueryClient();
  // The rows moved money: once the batch ends, the wallets, usage and history are stale.
  useEffect(() => {
    if (ended) void qc.invalidateQueries({ queryKey: portalKeys.session() });
  }, [ended, qc]);
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (!b) return null;
  return (
    <section className="panel" aria-label="Batch progress" aria-live="polite" data-testid="batch-progress">
      <h2 className="tab-title">
        Batch {b.id}: {STATUS_TEXT[b.status] ?? b.status}
      </h2>
      <progress className="batch-bar" max={b.total_rows} value={b.done_rows} aria-label="Rows done" />
      <dl className="detail-grid">
        <div>
          <dt>Rows done</dt>
          <dd data-testid="batch-done">
            {b.done_rows} of {b.total_rows}
          </dd>
        </div>
        <div>
          <dt>Charged</dt>
          <dd data-testid="batch-charged">{b.charged_rows}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd data-testid="batch-failed">{b.failed_rows}</dd>
        </div>
        <div>
          <dt>Amount charged</dt>
          <dd data-testid="batch-amount">{formatRupees(b.charged_paise)}</dd>
        </div>
      </dl>
      {b.error && <Alert message={{ kind: 'error', text: b.error }} />}
      {!isRunning(b) && <ResultButton batch={b} />}
    </section>
  );
}

function ResultButton({ batch }: { batch: Batch }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => downloadResult(batch).then(() => setError(null), (e: unknown) => setError(errorMessage(e)))}
      >
        Download result
      </button>
      {error && <span className="field-error">{error}</span>}
    </>
  );
}

function BatchList() {
  const [page] = usePageParam();
  const q = useBatches(page);
  const columns: ColumnDef<Batch>[] = [
    { id: 'date', header: 'Date', cell: ({ row }) => <span className="nowrap">{formatDate(row.original.created_at)}</span> },
    { id: 'file', header: 'File', cell: ({ row }) => row.original.file_name || '-' },
    { id: 'service', header: 'Services', cell: ({ row }) => row.original.service },
    { id: 'mode', header: 'Mode', cell: ({ row }) => (row.original.sandbox ? 'Sandbox' : 'Live') },
    { id: 'status', header: 'Status', cell: ({ row }) => STATUS_TEXT[row.original.status] ?? row.original.status },
    { id: 'rows', header: 'Rows done', cell: ({ row }) => `${row.original.done_rows} of ${row.original.total_rows}` },
    { id: 'charged', header: 'Charged', cell: ({ row }) => row.original.charged_rows },
    { id: 'failed', header: 'Failed', cell: ({ row }) => row.original.failed_rows },
    { id: 'amount', header: 'Amount', cell: ({ row }) => formatRupees(row.original.charged_paise) },
    { id: 'result', header: 'Result', cell: ({ row }) => (isRunning(row.original) ? 'In process' : <ResultButton batch={row.original} />) },
  ];
  return (
    <>
      <QueryTable
        query={q}
        columns={columns}
        pageSize={BATCHES_PAGE_SIZE}
        emptyText="No batches yet"
        pagingLabel={(p, t) => `${p} of ${t} pages`}
        getRowId={(r) => String(r.id)}
      />
    </>
  );
}
