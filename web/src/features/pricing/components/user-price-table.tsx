// User Detail, API Price: every API the user sees with the price they pay, what the partner
// pays for it (its cost) and a change-price field; a price below the cost is marked (the
// partner would lose money on every call), a search narrows the list; Save sends only the
// rows that changed.
import type { ColumnDef } from '@tanstack/react-table';
import { createContext, useContext, useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { rupeesToPaise } from '@/lib/money';
import type { UserRef } from '@/lib/user-ref';
import { useUserPrices, type UserPrice } from '../api/get-user-prices';
import { changedPrices, useSaveUserPrices } from '../api/save-user-prices';

const PAGE_SIZE = 50;

type EditState = { edits: Record<string, string>; errors: Record<string, string>; offset: number; set: (service: string, value: string) => void };

// Edits reach the cells through context so the column definitions stay the same objects:
// a new cell function would remount the input (and drop focus) on every key.
const EditContext = createContext<EditState | null>(null);

function RowNumber({ index }: { index: number }) {
  return <>{useContext(EditContext)!.offset + index + 1}</>;
}

function ChangePriceCell({ row }: { row: UserPrice }) {
  const { edits, errors, set } = useContext(EditContext)!;
  const s = row.service;
  return (
    <div className="cell-input">
      <input
        type="number"
        min={0}
        step="0.01"
        placeholder="-"
        aria-label={`Change price of ${row.name}`}
        value={edits[s] ?? ''}
        onChange={(e) => set(s, e.target.value)}
        aria-invalid={!!errors[s]}
      />
      {errors[s] && <span className="field-error">{errors[s]}</span>}
      {!errors[s] && belowCost(edits[s], row.amount_paise) && <span className="field-warning">Below your cost of {formatRupees(row.amount_paise)}</span>}
    </div>
  );
}

/** Whether a typed price is under what the partner pays per call. */
function belowCost(typed: string | undefined, cost: number): boolean {
  const paise = typed ? rupeesToPaise(typed) : null;
  return paise !== null && paise < cost;
}

function PriceCell({ row }: { row: UserPrice }) {
  const below = row.user_amount_paise < row.amount_paise;
  return (
    <>
      {formatRupees(row.user_amount_paise)}
      {below && <span className="field-warning"> Below cost</span>}
    </>
  );
}

const columns: ColumnDef<UserPrice>[] = [
  { id: 'n', header: '#', cell: ({ row }) => <RowNumber index={row.index} /> },
  { id: 'name', header: 'API Name', cell: ({ row }) => row.original.name },
  { id: 'service', header: 'Services', cell: ({ row }) => row.original.service },
  { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
  { id: 'price', header: 'Price', cell: ({ row }) => <PriceCell row={row.original} /> },
  { id: 'cost', header: 'Your cost', cell: ({ row }) => formatRupees(row.original.amount_paise) },
  { id: 'change', header: 'Change Price', cell: ({ row }) => <ChangePriceCell row={row.original} /> },
];

/** `clientId` when the super admin sets a client's user's prices. */
export function UserPriceTable({ userId, clientId }: UserRef) {
  const user = { userId, clientId };
  const prices = useUserPrices(user);
  const save = useSaveUserPrices(user);
  const msg = useTimedMessage();
  const [page] = usePageParam();
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const [search, setSearch] = useState('');
  const items = prices.data?.items ?? [];
  const needle = search.trim().toLowerCase();
  const found = needle ? items.filter((p) => [p.name, p.service, p.pid, p.category].some((t) => t.toLowerCase().includes(needle))) : items;
  const { rows, pages } = slicePage(found, page, PAGE_SIZE);
  const offset = (Math.min(page, Math.max(pages, 1)) - 1) * PAGE_SIZE;

  const submit = () => {
    const { changes, errors: errs } = changedPrices(items, edits);
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    if (changes.length === 0) {
      msg.error('No price was changed');
      return;
    }
    save.mutate(
      { user, prices: changes },
      {
        onSuccess: () => {
          setEdits({});
          msg.success('Price updated successfully');
        },
        onError: (e) => msg.error(errorMessage(e)),
      },
    );
  };

  const state: EditState = { edits, errors, offset, set: (service, value) => setEdits((prev) => ({ ...prev, [service]: value })) };

  return (
    <div className="page">
      <div className="toolbar">
        <span className="muted">Enter a new price where it should change; only changed prices are saved.</span>
        <button type="button" className="btn btn-primary" onClick={submit} disabled={save.isPending || items.length === 0}>
          {save.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="table-search">
        <label htmlFor="api-price-search">Search</label>
        <input id="api-price-search" type="search" placeholder="API name, service, PID or category" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {prices.isError && <Alert message={{ kind: 'error', text: errorMessage(prices.error) }} />}
      <EditContext.Provider value={state}>
        <DataTable
          columns={columns}
          data={rows}
          pageCount={pages}
          pageSize={PAGE_SIZE}
          isLoading={prices.isLoading}
          emptyText="No apis available"
          getRowId={(r) => r.service}
        />
      </EditContext.Provider>
    </div>
  );
}
