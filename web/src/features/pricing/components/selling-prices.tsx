// My Plan, Selling prices: the default margin over the partner's cost, and per API the price
// its users pay unless a user has a price of its own (User Detail, API Price). A field left
// blank is not changed; 'Use margin' removes the API's own selling price.
import type { ColumnDef } from '@tanstack/react-table';
import { createContext, useContext, useState, type FormEvent } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { changePriceField, type PriceChange } from '../api/save-user-prices';
import { marginError, useSaveMargin, useSaveSellingPrices, useSellingPrices, type SellingPrice } from '../api/selling-prices';

const PAGE_SIZE = 50;

type EditState = {
  edits: Record<string, string>;
  errors: Record<string, string>;
  set: (service: string, value: string) => void;
  reset: (service: string) => void;
  busy: boolean;
};

// Edits reach the cells through context so the column definitions stay the same objects and
// an input keeps its focus while typing.
const EditContext = createContext<EditState | null>(null);

function ChangeCell({ row }: { row: SellingPrice }) {
  const { edits, errors, set, reset, busy } = useContext(EditContext)!;
  const s = row.service;
  return (
    <div className="cell-input">
      <input
        type="number"
        min={0}
        step="0.01"
        placeholder="-"
        aria-label={`Selling price of ${row.name}`}
        value={edits[s] ?? ''}
        onChange={(e) => set(s, e.target.value)}
        aria-invalid={!!errors[s]}
      />
      {row.selling_price_paise !== null && (
        <button type="button" className="btn btn-outline btn-sm" onClick={() => reset(s)} disabled={busy}>
          Use margin
        </button>
      )}
      {errors[s] && <span className="field-error">{errors[s]}</span>}
    </div>
  );
}

const columns: ColumnDef<SellingPrice>[] = [
  { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
  { id: 'name', header: 'API Name', cell: ({ row }) => row.original.name },
  { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
  { id: 'cost', header: 'Your cost', cell: ({ row }) => formatRupees(row.original.amount_paise) },
  {
    id: 'sells',
    header: 'Selling price',
    cell: ({ row }) => (
      <>
        {formatRupees(row.original.sells_at_paise)}
        <span className="muted"> {row.original.selling_price_paise === null ? '(margin)' : '(own price)'}</span>
      </>
    ),
  },
  { id: 'change', header: 'Change selling price', cell: ({ row }) => <ChangeCell row={row.original} /> },
];

function MarginForm({ percent, onChanged }: { percent: number; onChanged?: () => void }) {
  const save = useSaveMargin(onChanged);
  const msg = useTimedMessage();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const value = text ?? String(percent);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = marginError(value);
    setError(err ?? undefined);
    if (err) return;
    save.mutate(Number(value), {
      onSuccess: () => {
        setText(null);
        msg.success('Margin updated successfully');
      },
      onError: (e) => msg.error(errorMessage(e)),
    });
  };
  return (
    <form className="margin-form" onSubmit={submit} noValidate>
      <Field label="Default margin (%)" htmlFor="default-margin" error={error} hint="Added to your cost for every API without its own selling price.">
        <input id="default-margin" inputMode="decimal" value={value} onChange={(e) => setText(e.target.value)} aria-invalid={!!error} />
      </Field>
      <button type="submit" className="btn btn-primary" disabled={save.isPending}>
        {save.isPending ? 'Wait...' : 'Save margin'}
      </button>
      <Alert message={msg.message} onClose={msg.clear} />
    </form>
  );
}

export function SellingPrices({ onChanged }: { onChanged?: () => void }) {
  const prices = useSellingPrices();
  const save = useSaveSellingPrices(onChanged);
  const msg = useTimedMessage();
  const [page] = usePageParam('sp');
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const items = prices.data?.items ?? [];
  const { rows, pages } = slicePage(items, page, PAGE_SIZE);

  const send = (changes: (PriceChange | { service: string; price_paise: null })[]) =>
    save.mutate(changes, {
      onSuccess: () => {
        setEdits({});
        msg.success('Price updated successfully');
      },
      onError: (e) => msg.error(errorMessage(e)),
    });

  const submit = () => {
    const changes: PriceChange[] = [];
    const errs: Record<string, string> = {};
    for (const row of items) {
      const text = edits[row.service];
      if (text === undefined || text.trim() === '') continue;
      const r = changePriceField.safeParse(text);
      if (!r.success) errs[row.service] = r.error.issues[0].message;
      else if (r.data !== row.selling_price_paise) changes.push({ service: row.service, price_paise: r.data });
    }
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    if (changes.length === 0) {
      msg.error('No price was changed');
      return;
    }
    send(changes);
  };

  const state: EditState = {
    edits,
    errors,
    busy: save.isPending,
    set: (service, value) => setEdits((prev) => ({ ...prev, [service]: value })),
    reset: (service) => send([{ service, price_paise: null }]),
  };

  if (prices.isError) return <Alert message={{ kind: 'error', text: errorMessage(prices.error) }} />;
  return (
    <div className="page">
      {prices.data && <MarginForm percent={prices.data.default_margin_percent} onChanged={onChanged} />}
      <div className="toolbar">
        <span className="muted">What your users pay unless a user has a price of its own. Only changed prices are saved.</span>
        <button type="button" className="btn btn-primary" onClick={submit} disabled={save.isPending || items.length === 0}>
          {save.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <EditContext.Provider value={state}>
        <DataTable
          columns={columns}
          data={rows}
          pageCount={pages}
          pageSize={PAGE_SIZE}
          pageParam="sp"
          isLoading={prices.isLoading}
          emptyText="No apis available"
          getRowId={(r) => r.service}
        />
      </EditContext.Provider>
    </div>
  );
}
