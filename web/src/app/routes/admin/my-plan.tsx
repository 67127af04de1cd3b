// /my-plan (spec part 2, §2.4): the plan is read-only; below it the partner sets what it sells
// at (issue 11): a default margin and its own price per API.
import { useQueryClient } from '@tanstack/react-query';
import { refreshMyPlan } from '@/app/query-cache';
import { MyPlanView } from '@/features/plans/components/my-plan-view';
import { SellingPrices } from '@/features/pricing/components/selling-prices';

export default function MyPlanPage() {
  const queryClient = useQueryClient();
  return (
    <section className="page">
      <h1 className="page-title">My Plan</h1>
      <MyPlanView />
      <h2 className="subsection-title">Selling prices</h2>
      <SellingPrices onChanged={() => refreshMyPlan(queryClient)} />
    </section>
  );
}
