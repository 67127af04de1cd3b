// /apis on a partner's site: what the user may call, with prices and each API's documentation.
import { ApisList } from '@/features/portal/components/apis-list';

export default function PortalApisPage() {
  return (
    <section className="page">
      <h1 className="page-title">APIs</h1>
      <p className="muted-on-bg">The APIs you can call, at your price per successful call. Send your key in the X-Api-Key header.</p>
      <ApisList />
    </section>
  );
}
