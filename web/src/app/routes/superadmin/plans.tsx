// /superadmin/plans: the four slab tabs with inline price edit, and 'Add New Service'
// (spec part 2, §2.16).
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Tabs, useTabParam } from '@/components/ui/tabs';
import { useCatalogueSummary } from '@/features/catalogue/api/get-catalogue-summary';
import { PLAN_TYPES, SLAB_TABS } from '@/features/plans/api/plan-types';
import { AddServiceModal } from '@/features/plans/components/add-service-modal';
import { SlabPriceTable } from '@/features/plans/components/slab-price-table';

export default function PlansPage() {
  const [plan, setPlan] = useTabParam(PLAN_TYPES, 'default');
  const [adding, setAdding] = useState(false);
  const catalogue = useCatalogueSummary('superadmin');
  const msg = useTimedMessage();

  return (
    <section className="page">
      <div className="toolbar">
        <span />
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          Add New Service
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <Tabs tabs={PLAN_TYPES.map((p) => ({ key: p, label: SLAB_TABS[p] }))} active={plan} onChange={setPlan}>
        <SlabPriceTable key={plan} plan={plan} />
      </Tabs>
      <AddServiceModal
        open={adding}
        initialPlan={plan}
        services={catalogue.data?.items ?? []}
        onClose={() => setAdding(false)}
        onAdded={(p) => {
          setAdding(false);
          setPlan(p);
          msg.success('Service added successfully');
        }}
      />
    </section>
  );
}
