// Plans: one slab's table of API, price and change price. Inline Edit of one row at a time;
// Save is disabled while the input is empty; cancel drops the edit.
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { DataTable, usePageParam } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { paiseToRupees } from '@/lib/money';
import { useSlabPrices, type SlabPrice } from '../api/get-slab-prices';
import type { PlanType } from '../api/plan-types';
import { slabPriceField, useSaveSlabPrices } from '../api/save-slab-prices';

type Editing = { service: string; value: string; error?: string };

export function SlabPriceTable({ plan }: { plan: PlanType }) {
  const [page] = usePageParam();
  const prices = useSlabPrices(plan, page);
  const { mutation: save, job, jobError, clearJob } = useSaveSlabPrices(plan);
  const msg = useTimedMessage();
  const { success, error } = msg;
  const [editing, setEditing] = useState<Editing | null>(null);

  // A queued list of prices reports when its job settles.
  useEffect(() => {
    if (job === 'done') {
      success('Prices updated successfully');
      clearJob();
    } else if (job === 'failed') {
      error(jobError || 'Something went wrong, Try again.');
      clearJob();
    }
  }, [job, jobError, success, error, clearJob]);

  const startEdit = (row: SlabPrice) => setEditing({ service: row.service, value: paiseToRupees(row.price_paise) });

  const submit = () => {
    if (!editing) return;
    const r = slabPriceField.safeParse(editing.value);
    if (!r.success) {
      setEditing({ ...editing, error: r.error.issues[0].message });
      return;
    }
    save.mutate(
      { plan, prices: [{ service: editing.service, price_paise: r.data }] },
      {
        onSuccess: (res) => {
          setEditing(null);
          if ('job_id' in res) msg.success('Saving prices...');
          else msg.success('Price updated successfully');
        },
        onError: (e) => msg.error(errorMessage(e)),
      },
    );
  };

  const columns: ColumnDef<SlabPrice>[] = [
    {
      id: 'api',
      header: 'API',
      cell: ({ row }) => (
        <div>
          <div>{row.original.name}</div>
          <div className="muted small">{row.original.service}</div>
        </div>
      ),
    },
    { id: 'price', header: 'Price', cell: ({ row }) => formatRupees(row.original.price_paise) },
    {
      id: 'change',
      header: 'Change Price',
      cell: ({ row }) => {
        const r = row.original;
        if (editing?.service !== r.service) {
          return (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => startEdit(r)}
              disabled={editing !== null}
              aria-label={`Edit price of ${r.name}`}
            >
              Edit
            </button>
          );
        }
        return (
          <form
            className="inline-edit"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <input
              type="number"
              min={0}
              step="0.01"
              autoFocus
              aria-label={`New price of ${r.name}`}
              value={editing.value}
              onChange={(e) => setEditing({ service: r.service, value: e.target.value })}
              aria-invalid={!!editing.error}
            />
            <button type="submit" className="btn btn-primary btn-sm" disabled={editing.value.trim() === '' || save.isPending}>
              {save.isPending ? 'Wait...' : 'Save'}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(null)}>
              Cancel
            </button>
            {editing.error && <span className="field-error">{editing.error}</span>}
          </form>
        );
      },
    },
  ];

  return (
    <div className="page">
      <Alert message={msg.message} onClose={msg.clear} />
      {prices.isError && <Alert message={{ kind: 'error', text: errorMessage(prices.error) }} />}
      <DataTable
        columns={columns}
        data={prices.data?.items ?? []}
        pageCount={prices.data?.pages ?? 1}
        pageSize={prices.data?.per_page ?? 50}
        isLoading={prices.isLoading}
        emptyText="No data"
        getRowId={(r) => r.service}
      />
    </div>
  );
}
