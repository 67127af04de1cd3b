// /batch on a partner's site, while the partner's Batch Processing is on (the menu shows it
// then; the api refuses a batch otherwise).
import { BatchVerification } from '@/features/portal/components/batch';

export default function PortalBatchPage() {
  return (
    <section className="page">
      <h1 className="page-title">Batch verification</h1>
      <BatchVerification />
    </section>
  );
}
