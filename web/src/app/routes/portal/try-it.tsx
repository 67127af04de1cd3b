// /try-it on a partner's site (?service= picks the API, as the APIs page links it).
import { useSearchParams } from 'react-router';
import { TryItConsole } from '@/features/portal/components/try-it-console';

export default function PortalTryItPage() {
  const [params] = useSearchParams();
  return (
    <section className="page">
      <h1 className="page-title">Try it</h1>
      <TryItConsole initialService={params.get('service') ?? undefined} />
    </section>
  );
}
