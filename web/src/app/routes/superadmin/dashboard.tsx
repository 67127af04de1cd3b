// /superadmin/dashboard (spec part 2 §2.13): Total Users, Total Transactions, Accessed
// products and Current credits. The page title is in the shell's header.
import { Alert } from '@/components/ui/alert';
import { useSuperAdminDashboard } from '@/features/clients/api/get-dashboard';
import { errorMessage } from '@/lib/api-client';
import { formatCount, formatRupees } from '@/lib/format';

export default function SuperAdminDashboardPage() {
  const counts = useSuperAdminDashboard();
  const d = counts.data;
  const tiles: [string, string][] = [
    ['Total Users', d ? formatCount(d.total_users) : '–'],
    ['Total Transactions', d ? formatCount(d.total_transactions) : '–'],
    ['Accessed products', d ? formatCount(d.accessed_products) : '–'],
    ['Current credits', d ? formatRupees(d.current_credits_paise) : '–'],
  ];
  return (
    <section className="page">
      {counts.isError && <Alert message={{ kind: 'error', text: errorMessage(counts.error) }} />}
      <div className="tiles">
        {tiles.map(([label, value]) => (
          <div key={label} className="tile">
            <div className="tile-label">{label}</div>
            <div className="tile-value">{value}</div>
          </div>
        ))}
      </div>
    </section>
  );
}
