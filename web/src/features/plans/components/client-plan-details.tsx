// Client details, Plan Details: the client's slab and the price it pays for each API, with
// where that price comes from (customised, the slab, or the catalogue default).
import type { ColumnDef } from '@tanstack/react-table';
import { Alert } from '@/components/ui/alert';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatRupees } from '@/lib/format';
import { useClientPlan, type ClientPlanItem } from '../api/get-client-plan';
import { planName } from '../api/plan-types';

const PAGE_SIZE = 50;
const sourceText: Record<string, string> = { custom: 'Customised', plan: 'Plan', default: 'Default' };

const columns: ColumnDef<ClientPlanItem>[] = [
  { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
  { id: 'name', header: 'API Name', cell: ({ row }) => row.original.name },
  { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
  { id: 'price', header: 'Price', cell: ({ row }) => formatRupees(row.original.amount_paise) },
  { id: 'source', header: 'Source', cell: ({ row }) => sourceText[row.original.amount_source] ?? row.original.amount_source },
];

export function ClientPlanDetails({ clientId }: { clientId: number }) {
  const plan = useClientPlan(clientId);
  const [page] = usePageParam();
  const { rows, pages } = slicePage(plan.data?.items ?? [], page, PAGE_SIZE);
  return (
    <div className="page">
      {plan.isError && <Alert message={{ kind: 'error', text: errorMessage(plan.error) }} />}
      {plan.data && (
        <dl className="detail-grid">
          <div>
            <dt>Plan type</dt>
            <dd>
              {planName(plan.data.plan)}
              {plan.data.customised ? ' (customised)' : ''}
            </dd>
          </div>
          <div>
            <dt>Selected</dt>
            <dd>{formatDate(plan.data.plan_selected_at)}</dd>
          </div>
        </dl>
      )}
      <DataTable
        columns={columns}
        data={rows}
        pageCount={pages}
        pageSize={PAGE_SIZE}
        isLoading={plan.isLoading}
        emptyText="No data"
        getRowId={(r) => r.service}
      />
    </div>
  );
}
