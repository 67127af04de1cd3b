// My Plan (partner, read-only): plan type, last-modified time, and category, API name, PID,
// price for each API, and beside it what the partner's users pay (its selling price, or the cost
// plus its default margin); 'No plan selected yet' without a plan.
import type { ColumnDef } from '@tanstack/react-table';
import { Alert } from '@/components/ui/alert';
import { DataTable, slicePage, usePageParam } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatRupees } from '@/lib/format';
import { useMyPlan, type MyPlanItem } from '../api/get-my-plan';
import { planName } from '../api/plan-types';

const PAGE_SIZE = 50;
const columns: ColumnDef<MyPlanItem>[] = [
  { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
  { id: 'name', header: 'API Name', cell: ({ row }) => row.original.name },
  { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
  { id: 'price', header: 'Price', cell: ({ row }) => formatRupees(row.original.price_paise) },
  { id: 'sells', header: 'Selling price', cell: ({ row }) => formatRupees(row.original.sells_at_paise) },
];

export function MyPlanView() {
  const plan = useMyPlan();
  const [page] = usePageParam();
  if (plan.isLoading) return <Spinner />;
  if (plan.isError) return <Alert message={{ kind: 'error', text: errorMessage(plan.error) }} />;
  if (!plan.data?.plan) return <p className="empty-state">No plan selected yet</p>;
  const { rows, pages } = slicePage(plan.data.items, page, PAGE_SIZE);
  return (
    <>
      <dl className="detail-grid">
        <div>
          <dt>Plan type</dt>
          <dd>{planName(plan.data.plan)}</dd>
        </div>
        <div>
          <dt>Last modified</dt>
          <dd>{formatDate(plan.data.updated_at)}</dd>
        </div>
      </dl>
      <DataTable columns={columns} data={rows} pageCount={pages} pageSize={PAGE_SIZE} emptyText="No data" getRowId={(r) => r.service} />
    </>
  );
}
