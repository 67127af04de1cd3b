// /my-apis (spec part 2, §2.5): every catalogue API with Show or Hide for all the partner's
// users, applied on selection; the gateway honours it (domain::visibility).
import { Alert } from '@/components/ui/alert';
import { useCatalogueSummary } from '@/features/catalogue/api/get-catalogue-summary';
import { VisibilityTable } from '@/features/visibility/components/visibility-table';
import { errorMessage } from '@/lib/api-client';

export default function MyApisPage() {
  const catalogue = useCatalogueSummary('partner');
  return (
    <section className="page">
      <h1 className="page-title">My APIs</h1>
      <p className="muted">Choose which APIs your users see. An API is shown unless you hide it.</p>
      {catalogue.isError && <Alert message={{ kind: 'error', text: errorMessage(catalogue.error) }} />}
      <VisibilityTable scope={{ scope: 'partner' }} apis={catalogue.data?.items ?? []} by="api" loading={catalogue.isLoading} />
    </section>
  );
}
