// 'Export to CSV' on a ledger (User Detail, User Transactions, My Transactions): asks for the
// date range, requests the export and polls it until it ends, then offers its links.
// Usage: <ExportCsvButton kind="api_transactions" userId={id} /> for one user's ledger; without
// `userId`, all the partner's users (wallet_entries: the partner's own wallets). A screen with a
// filter panel passes its `filter` (the wallet transactions: `walletFilter`; the portal's logs:
// `statusCode`) and the `side` of the money it shows, so the file holds exactly that screen's
// rows; the range starts as the filter's day or dates.
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage, type AuthScope } from '@/lib/api-client';
import { partnerFilterParams, type PartnerFilter } from '@/lib/partner-filter';
import type { WalletFilter } from '@/lib/wallet-filter';
import { useExport } from '../api/get-export';
import { useRequestExport, type ExportRequest, type MoneySide } from '../api/request-export';
import type { ExportKind } from '../api/types';
import { ExportLinks, ExportStatusText } from './export-state';
import { ExportRangeForm } from './export-range-form';

type Props = {
  kind: ExportKind;
  userId?: number;
  from?: string;
  to?: string;
  auth?: AuthScope;
  filter?: PartnerFilter;
  side?: MoneySide;
  walletFilter?: WalletFilter;
  statusCode?: string;
};

/** A Status Code field's value as the request's number (the panel checked its three digits). */
const code = (s: string | undefined) => (s && /^\d{3}$/.test(s.trim()) ? Number(s.trim()) : undefined);

/** What of the screen's rows the request names, beside the range. */
export function exportView({
  kind,
  userId,
  filter,
  side,
  walletFilter,
  statusCode,
}: Pick<Props, 'kind' | 'userId' | 'filter' | 'side' | 'walletFilter' | 'statusCode'>): Omit<ExportRequest, 'from' | 'to'> {
  // Only the logs of API calls have a Status Code filter.
  const status_code = kind === 'api_logs' ? code(filter?.status_code ?? statusCode) : undefined;
  if (walletFilter) {
    const wallet = walletFilter.kind === 'api' || walletFilter.kind === 'product' ? walletFilter.kind : undefined;
    const type = walletFilter.type === 'credit' || walletFilter.type === 'debit' ? walletFilter.type : undefined;
    return { kind, user_id: userId, wallet, type };
  }
  if (!filter) return { kind, user_id: userId, side, status_code };
  const p = partnerFilterParams(filter);
  const user = p.user_id ? Number(p.user_id) : userId;
  // A User ID in the panel narrows the list to that user's calls; it is not User Detail's ledger.
  return { kind, user_id: user, ledger: false, side, email: p.email, pid: p.pid, services: p.services, status_code };
}

export function ExportCsvButton({ kind, userId, from, to, auth, filter, side, walletFilter, statusCode }: Props) {
  const [open, setOpen] = useState(false);
  const [exportId, setExportId] = useState<number | null>(null);
  const request = useRequestExport(auth);
  const current = useExport(open ? exportId : null, auth);
  const item = current.data;
  const idPrefix = `export-${kind}`;

  const close = () => {
    setOpen(false);
    setExportId(null);
    request.reset();
  };

  const fieldErrors = request.error instanceof ApiError ? request.error.fields : undefined;
  const generalError = request.error && !(fieldErrors && Object.keys(fieldErrors).length) ? errorMessage(request.error) : null;

  return (
    <>
      <div className="export-bar">
        <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
          Export to CSV
        </button>
      </div>
      <Modal open={open} title="Export to CSV" onClose={close}>
        {exportId === null ? (
          <>
            {generalError && <Alert message={{ kind: 'error', text: generalError }} />}
            <ExportRangeForm
              idPrefix={idPrefix}
              from={from ?? (filter?.date || walletFilter?.from || undefined)}
              to={to ?? (filter?.date || walletFilter?.to || undefined)}
              submitLabel="Export"
              pending={request.isPending}
              serverErrors={fieldErrors}
              onSubmit={(range) => request.mutate({ ...exportView({ kind, userId, filter, side, walletFilter, statusCode }), ...range }, { onSuccess: (r) => setExportId(r.export_id) })}
            />
          </>
        ) : (
          <div className="export-result" aria-live="polite">
            {current.isError && <Alert message={{ kind: 'error', text: errorMessage(current.error) }} />}
            {item?.status === 'completed' && item.urls.length > 0 && <Alert message={{ kind: 'success', text: 'CSV is ready to download' }} />}
            {item?.status === 'failed' && <Alert message={{ kind: 'error', text: 'Something went wrong. try again later' }} />}
            {item && (
              <dl className="export-facts">
                <dt>Status</dt>
                <dd>
                  <ExportStatusText item={item} />
                </dd>
                {item.status === 'completed' && (
                  <>
                    <dt>Total records</dt>
                    <dd>{item.total_records ?? 0}</dd>
                  </>
                )}
                <dt>Links</dt>
                <dd>
                  <ExportLinks item={item} />
                </dd>
              </dl>
            )}
            {!item && !current.isError && <p className="muted">In process</p>}
          </div>
        )}
      </Modal>
    </>
  );
}
