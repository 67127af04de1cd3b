// The outbox: to, subject and time of each message, newest first; View opens one.
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useMail } from '../api/get-mail';
import { OUTBOX_PAGE_SIZE, useOutbox, type OutboxEntry } from '../api/get-outbox';

export function OutboxTable() {
  const [page] = usePageParam();
  const outbox = useOutbox(page);
  const [open, setOpen] = useState<string | null>(null);

  const columns: ColumnDef<OutboxEntry>[] = [
    { id: 'at', header: 'Time', cell: ({ row }) => formatDate(row.original.at) },
    { id: 'to', header: 'To', cell: ({ row }) => row.original.to },
    { id: 'subject', header: 'Subject', cell: ({ row }) => row.original.subject },
    {
      id: 'view',
      header: '',
      cell: ({ row }) => (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => setOpen(row.original.id)}>
          View
        </button>
      ),
    },
  ];

  return (
    <>
      {outbox.data && <p className="muted">{`${outbox.data.total} messages`}</p>}
      <QueryTable
        query={outbox}
        columns={columns}
        pageSize={OUTBOX_PAGE_SIZE}
        emptyText="No mail yet"
        getRowId={(r) => r.id}
      />
      <MailModal id={open} onClose={() => setOpen(null)} />
    </>
  );
}

function MailModal({ id, onClose }: { id: string | null; onClose: () => void }) {
  const mail = useMail(id);
  const m = mail.data;
  return (
    <Modal open={!!id} title={m?.subject ?? 'Mail'} onClose={onClose} size="lg">
      {mail.isError && <Alert message={{ kind: 'error', text: errorMessage(mail.error) }} />}
      {mail.isLoading && <p>Loading...</p>}
      {m && (
        <div className="mail-view">
          <dl className="mail-headers">
            <dt>From</dt>
            <dd>{m.from}</dd>
            <dt>To</dt>
            <dd>{m.to}</dd>
            <dt>Time</dt>
            <dd>{formatDate(m.at)}</dd>
          </dl>
          <pre className="mail-text">{m.text}</pre>
        </div>
      )}
    </Modal>
  );
}
