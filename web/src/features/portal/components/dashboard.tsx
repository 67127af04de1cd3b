// The signed-in user's dashboard: both wallets, the low-balance notice, the last 30 days' calls
// and spend (per day and per API) with the success rate, and how to reach the partner.
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { DataTable } from '@/components/ui/data-table';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatCount, formatRupees } from '@/lib/format';
import { useMe, useUsage } from '../api/get-me';
import type { PublicPortal, UsageApi } from '../api/types';
import { portalPaths } from '../paths';
import { ContactDetails } from './portal-landing';
import { UsageChart } from './usage-chart';

const apiColumns: ColumnDef<UsageApi>[] = [
  { header: 'API', accessorKey: 'name' },
  { header: 'Calls', cell: ({ row }) => formatCount(row.original.calls) },
  { header: 'Successful', cell: ({ row }) => formatCount(row.original.successful) },
  { header: 'Spend', cell: ({ row }) => formatRupees(row.original.spend_paise) },
];

export function LowBalanceNotice() {
  return (
    <div className="alert alert-error low-balance" role="alert">
      <div>
        <strong className="alert-title">Low balance.</strong> Your API wallet is below its minimum balance: calls stop when it runs out.{' '}
        <Link to={portalPaths.topUp}>Add money</Link>
      </div>
    </div>
  );
}

export function Dashboard({ site }: { site: PublicPortal }) {
  const me = useMe();
  const usage = useUsage();
  if (me.isPending) return <Spinner />;
  if (me.isError) return <p role="alert">{errorMessage(me.error)}</p>;
  const u = usage.data;
  const docs = me.data.partner.documentation_link ?? site.documentation_link;

  return (
    <section className="page portal-dashboard">
      <h1 className="page-title">Dashboard</h1>
      <p className="welcome">Welcome, {me.data.first_name}.</p>
      {me.data.low_balance && <LowBalanceNotice />}
      <div className="tiles">
        <div className="tile">
          <div className="tile-label">API Wallet</div>
          <div className="tile-value">{formatRupees(me.data.wallets.api.balance_paise)}</div>
        </div>
        <div className="tile">
          <div className="tile-label">Product Wallet</div>
          <div className="tile-value">{formatRupees(me.data.wallets.product.balance_paise)}</div>
        </div>
        <div className="tile">
          <div className="tile-label">Calls, last 30 days</div>
          <div className="tile-value">{u ? formatCount(u.calls) : '–'}</div>
        </div>
        <div className="tile">
          <div className="tile-label">Spend, last 30 days</div>
          <div className="tile-value">{u ? formatRupees(u.spend_paise) : '–'}</div>
        </div>
        <div className="tile">
          <div className="tile-label">Success rate</div>
          <div className="tile-value">{u ? (u.success_rate === null ? 'No calls yet' : `${u.success_rate}%`) : '–'}</div>
        </div>
      </div>

      <div className="panel">
        <h2 className="panel-title">Usage, last 30 days</h2>
        {usage.isError && <p role="alert">{errorMessage(usage.error)}</p>}
        {u && (u.calls === 0 ? <p className="muted">No calls in the last 30 days. Try an API in the Try it console.</p> : <UsageChart days={u.days} />)}
      </div>

      <div className="panel">
        <h2 className="panel-title">By API</h2>
        <DataTable
          columns={apiColumns}
          data={u?.apis ?? []}
          pageCount={1}
          hidePaging
          isLoading={usage.isPending}
          emptyText="No calls in the last 30 days."
          getRowId={(r) => r.service}
        />
      </div>

      <div className="panel">
        <h2 className="panel-title">Help and contact</h2>
        <ContactDetails contact={site.contact} />
        {docs && (
          <p>
            <a href={docs} target="_blank" rel="noreferrer">
              API documentation
            </a>
          </p>
        )}
      </div>
    </section>
  );
}
