// /history on a partner's site: the user's transactions and logs, each with Export to CSV
// through the exports job (a user token exports the user's own rows only).
import { ExportCsvButton } from '@/features/exports/components/export-csv-button';
import { History } from '@/features/portal/components/history';

export default function PortalHistoryPage() {
  return (
    <section className="page">
      <h1 className="page-title">History</h1>
      <History
        exportButton={(kind, from, to, statusCode) => (
          <ExportCsvButton key={`${kind}-${from}-${to}-${statusCode}`} kind={kind} from={from} to={to} statusCode={statusCode} auth="user" />
        )}
      />
    </section>
  );
}
