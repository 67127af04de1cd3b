// /top-up on a partner's site.
import { useMe } from '@/features/portal/api/get-me';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { TopUp } from '@/features/portal/components/top-up';

export default function PortalTopUpPage() {
  const me = useMe();
  return (
    <section className="page">
      <h1 className="page-title">Top-up</h1>
      <TopUp me={me.data} site={useLoadedSite()} />
    </section>
  );
}
