// /webhooks on a partner's site: the end user's webhook endpoints and their deliveries.
import { Webhooks } from '@/features/webhooks/components/webhooks';

export default function PortalWebhooksPage() {
  return (
    <section className="page">
      <h1 className="page-title">Webhooks</h1>
      <Webhooks scope="me" />
    </section>
  );
}
