// The footer's policies on a partner's site, in the partner's own frame: its terms where it
// wrote them, else the platform's text (GET /public/policies/{kind} by Host).
import type { PolicyKind } from '@/features/policies/api/get-policy';
import { PolicyText } from '@/features/policies/components/policy-text';
import { useLoadedSite } from '@/features/portal/api/get-site';
import { SiteFooter, SiteHeader } from '@/features/portal/components/site-frame';

export default function PortalPolicyPage({ kind }: { kind: PolicyKind }) {
  const site = useLoadedSite();
  return (
    <div className="landing">
      <SiteHeader site={site} />
      <main className="section policy-page">
        <PolicyText kind={kind} />
      </main>
      <SiteFooter site={site} />
    </div>
  );
}
