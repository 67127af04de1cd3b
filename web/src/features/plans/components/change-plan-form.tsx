// Client details, Settings: Change Plan (a select).
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { useChangeClientPlan } from '../api/change-client-plan';
import { PLAN_TYPES, isPlanType, planName, type PlanType } from '../api/plan-types';

type Props = {
  clientId: number;
  current: string | null | undefined;
  /** After a change: other features showing the client's plan refresh their copies. */
  onChanged?: () => void;
};

export function ChangePlanForm({ clientId, current, onChanged }: Props) {
  const [plan, setPlan] = useState<PlanType | ''>(isPlanType(current) ? current : '');
  const change = useChangeClientPlan(clientId);
  const msg = useTimedMessage();
  return (
    <form
      className="form narrow-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!plan) return;
        change.mutate(
          { clientId, plan },
          {
            onSuccess: () => {
              msg.success('Plan changed successfully');
              onChanged?.();
            },
            onError: (err) => msg.error(errorMessage(err)),
          },
        );
      }}
    >
      <h3>Change Plan</h3>
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="field">
        <label htmlFor="change-plan">Plan</label>
        <select id="change-plan" value={plan} onChange={(e) => setPlan(e.target.value as PlanType)}>
          <option value="">Select plan</option>
          {PLAN_TYPES.map((p) => (
            <option key={p} value={p}>
              {planName(p)}
            </option>
          ))}
        </select>
      </div>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={!plan || change.isPending}>
          {change.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
