// The dashboard's earnings for a chosen period (issue 11): revenue, cost and margin, per day as
// a chart and per API as a table. The period lives in the URL (?from=&to=, UTC days).
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { formatCount, formatRupees } from '@/lib/format';
import { useUrlFilter } from '@/lib/url-filter';
import { useEarnings, type ApiEarnings } from '../api/get-earnings';
import { EarningsChart, shortDay } from './earnings-chart';

const KEYS = ['from', 'to'] as const;
const PER_PAGE = 10;

const money = (paise: number) => <span className={paise < 0 ? 'amount-negative' : undefined}>{formatRupees(paise)}</span>;

const columns: ColumnDef<ApiEarnings>[] = [
  { header: 'API', accessorKey: 'name' },
  { header: 'Services', accessorKey: 'service' },
  { header: 'Calls', accessorKey: 'calls', cell: (c) => formatCount(c.row.original.calls) },
  { header: 'Revenue', accessorKey: 'revenue_paise', cell: (c) => money(c.row.original.revenue_paise) },
  { header: 'Cost', accessorKey: 'cost_paise', cell: (c) => money(c.row.original.cost_paise) },
  { header: 'Margin', accessorKey: 'margin_paise', cell: (c) => money(c.row.original.margin_paise) },
];

function PeriodForm({ from, to, onApply }: { from: string; to: string; onApply: (from: string, to: string) => void }) {
  const [f, setF] = useState(from);
  const [t, setT] = useState(to);
  const wrong = f && t && f > t ? 'From must not be after To' : undefined;
  return (
    <form
      className="period-form"
      aria-label="Earnings period"
      onSubmit={(e) => {
        e.preventDefault();
        if (!wrong) onApply(f, t);
      }}
    >
      <Field label="From" htmlFor="earn-from" error={wrong}>
        <input id="earn-from" type="date" value={f} max={t || undefined} onChange={(e) => setF(e.target.value)} />
      </Field>
      <Field label="To" htmlFor="earn-to">
        <input id="earn-to" type="date" value={t} min={f || undefined} onChange={(e) => setT(e.target.value)} />
      </Field>
      <button type="submit" className="btn btn-primary" disabled={!!wrong}>
        Apply
      </button>
    </form>
  );
}

export function EarningsPanel() {
  const filter = useUrlFilter(KEYS);
  const q = useEarnings(filter.values.from, filter.values.to);
  const [page] = usePageParam('apis_page');
  const e = q.data;
  const { rows, pages } = slicePage(e?.apis ?? [], page, PER_PAGE);
  const tiles: [string, number | undefined][] = [
    ['Revenue', e?.revenue_paise],
    ['Cost', e?.cost_paise],
    ['Margin', e?.margin_paise],
  ];
  const period = e ? `${shortDay(e.from)} to ${shortDay(e.to)}` : '';
  return (
    <section className="earnings" aria-labelledby="earnings-title">
      <div className="earnings-head">
        <h2 id="earnings-title">Earnings</h2>
        {e && (
          <PeriodForm
            key={`${e.from}|${e.to}`}
            from={filter.values.from || e.from}
            to={filter.values.to || e.to}
            onApply={(from, to) => filter.apply({ from, to })}
          />
        )}
      </div>
      {q.isError && <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />}
      <div className="tiles">
        {tiles.map(([label, value]) => (
          <div className="tile" key={label}>
            <div className="tile-label">{label}</div>
            <div className="tile-value">{value === undefined ? '–' : money(value)}</div>
          </div>
        ))}
      </div>
      {e && (
        <>
          <p className="muted">
            {formatCount(e.calls)} successful calls, {period} (UTC days). Revenue is what your users paid, cost what you paid; refunded calls earn nothing.
          </p>
          <EarningsChart days={e.days} label={`Revenue, cost and margin per day, ${period}`} />
          <h3>Per API</h3>
          <DataTable
            columns={columns}
            data={rows}
            pageCount={pages}
            pageSize={PER_PAGE}
            pageParam="apis_page"
            emptyText="No transactions available"
            isLoading={q.isPlaceholderData}
            getRowId={(r) => r.service}
          />
        </>
      )}
    </section>
  );
}
