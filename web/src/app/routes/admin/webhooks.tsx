// /webhooks in the partner console: the partner's own webhook endpoints and their deliveries.
import { Webhooks } from '@/features/webhooks/components/webhooks';

export default function WebhooksPage() {
  return (
    <section className="page">
      <h1 className="page-title">Webhooks</h1>
      <Webhooks scope="partner" />
    </section>
  );
}
