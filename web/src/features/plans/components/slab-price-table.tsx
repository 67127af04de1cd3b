// Plans: one slab's table of API, price and change price. Inline Edit of one row at a time;
// Save is disabled while the input is empty; cancel drops the edit.
import type { ColumnDef } from '@tanstack/react-table';
import { createContext, useContext, useEffect, useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { paiseToRupees } from '@/lib/money';
import { useSlabPrices, type SlabPrice } from '../api/get-slab-prices';
import type { PlanType } from '../api/plan-types';
import { slabPriceField, useSaveSlabPrices } from '../api/save-slab-prices';

type Editing = { service: string; value: string; error?: string };
type EditState = {
  editing: Editing | null;
  saving: boolean;
  start: (row: SlabPrice) => void;
  change: (value: string) => void;
  cancel: () => void;
  submit: () => void;
};

// The edit state reaches the cells through context so that the column definitions stay the
// same objects between renders: a new cell function would remount the input on every key.
const EditContext = createContext<EditState | null>(null);

function ChangePriceCell({ row }: { row: SlabPrice }) {
  const { editing, saving, start, change, cancel, submit } = useContext(EditContext)!;
  if (editing?.service !== row.service) {
    return (
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => start(row)} disabled={editing !== null} aria-label={`Edit price of ${row.name}`}>
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
        aria-label={`New price of ${row.name}`}
        value={editing.value}
        onChange={(e) => change(e.target.value)}
        aria-invalid={!!editing.error}
      />
      <button type="submit" className="btn btn-primary btn-sm" disabled={editing.value.trim() === '' || saving}>
        {saving ? 'Wait...' : 'Save'}
      </button>
      {/* 'cancel' in lower case, as the spec writes it (part 2, §2.16). */}
      <button type="button" className="btn btn-secondary btn-sm" onClick={cancel}>
        cancel
      </button>
      {editing.error && <span className="field-error">{editing.error}</span>}
    </form>
  );
}

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
  { id: 'change', header: 'Change Price', cell: ({ row }) => <ChangePriceCell row={row.original} /> },
];

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
          if ('job_id' in res) success('Saving prices...');
          else success('Price updated successfully');
        },
        onError: (e) => error(errorMessage(e)),
      },
    );
  };

  const state: EditState = {
    editing,
    saving: save.isPending,
    start: (row) => setEditing({ service: row.service, value: paiseToRupees(row.price_paise) }),
    change: (value) => setEditing((e) => (e ? { service: e.service, value } : e)),
    cancel: () => setEditing(null),
    submit,
  };

  return (
    <div className="page">
      <Alert message={msg.message} onClose={msg.clear} />
      <EditContext.Provider value={state}>
        <QueryTable
          query={prices}
          columns={columns}
          pageSize={prices.data?.per_page ?? 50}
          emptyText="No data"
          getRowId={(r) => r.service}
        />
      </EditContext.Provider>
    </div>
  );
}
