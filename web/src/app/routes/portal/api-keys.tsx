// /api-keys on a partner's site.
import { useMe } from '@/features/portal/api/get-me';
import { ApiKeys } from '@/features/portal/components/api-keys';

export default function PortalApiKeysPage() {
  const me = useMe();
  return (
    <section className="page">
      <h1 className="page-title">API Keys</h1>
      <ApiKeys fullAccess={me.data?.full_access ?? true} />
    </section>
  );
}
