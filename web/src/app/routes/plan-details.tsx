// /superadmin/planDetails: plan cards; Standard is the active plan, the others offer Upgrade.
import { Link } from 'react-router';
import { PlanCards } from '@/features/plan-cards/components/plan-cards';
import { SiteBrand } from '@/components/layouts/site-brand';

export default function PlanDetailsPage() {
  return (
    <div className="landing">
      <header className="site-header">
        <SiteBrand />
      </header>
      <main className="section">
        <h1 className="section-title">Plans</h1>
        <PlanCards
          action={(plan) =>
            plan.id === 'standard' || plan.heading === 'Standard' ? (
              <span className="btn btn-block plan-activated">Activated</span>
            ) : (
              <Link to="/signup" className="btn btn-primary btn-block">
                Upgrade
              </Link>
            )
          }
        />
      </main>
    </div>
  );
}
