// /superadmin/mail: with MAIL=outbox, the messages the platform wrote instead of sending.
import { OutboxTable } from '@/features/mail/components/outbox-table';

export default function MailPage() {
  return (
    <section className="page">
      <OutboxTable />
    </section>
  );
}
