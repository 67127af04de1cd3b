// /dashboard: two count tiles, Users and Transactions (spec part 1 "Dashboard"), and the
// earnings of a chosen period (issue 11).
import { EarningsPanel } from '@/features/earnings/components/earnings-panel';
import { useDashboard } from '@/features/users/api/get-dashboard';
import { formatCount } from '@/lib/format';

export default function DashboardPage() {
  const counts = useDashboard();
  return (
    <section className="page">
      <h1 className="page-title">Dashboard</h1>
      <div className="tiles">
        <div className="tile">
          <div className="tile-label">Users</div>
          <div className="tile-value">{counts.data ? formatCount(counts.data.users) : '–'}</div>
        </div>
        <div className="tile">
          <div className="tile-label">Transactions</div>
          <div className="tile-value">{counts.data ? formatCount(counts.data.transactions) : '–'}</div>
        </div>
      </div>
      <EarningsPanel />
    </section>
  );
}
