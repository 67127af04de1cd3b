// /my-plan (spec part 2, §2.4): read-only.
import { MyPlanView } from '@/features/plans/components/my-plan-view';

export default function MyPlanPage() {
  return (
    <section className="page">
      <h1 className="page-title">My Plan</h1>
      <MyPlanView />
    </section>
  );
}
