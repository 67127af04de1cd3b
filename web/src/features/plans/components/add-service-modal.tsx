// Plans: 'Add New Service' — plan type, service and price, with the spec's five messages
// checked here first and the server's shown as well.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { addServiceSchema, useAddService, type AddServiceForm } from '../api/add-service';
import { PLAN_TYPES, planName, type PlanType } from '../api/plan-types';

export type ServiceOption = { service: string; name: string };

type Props = {
  open: boolean;
  initialPlan?: PlanType;
  services: ServiceOption[];
  onClose: () => void;
  onAdded: (plan: PlanType) => void;
};

export function AddServiceModal(props: Props) {
  if (!props.open) return null;
  return <AddServiceDialog {...props} />;
}

function AddServiceDialog({ initialPlan, services, onClose, onAdded }: Props) {
  const form = useZodForm<typeof addServiceSchema, AddServiceForm>(addServiceSchema, {
    plan_type: initialPlan ?? '',
    service: '',
    price: '',
  });
  const msg = useTimedMessage();
  const add = useAddService();

  const submit = form.handleSubmit((data) =>
    add.mutate(
      { plan_type: data.plan_type, service: data.service, price_paise: data.price },
      {
        onSuccess: (r) => onAdded(r.plan),
        onError: (e) => {
          if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
            form.setErrors({ plan_type: e.fields.plan_type, service: e.fields.service, price: e.fields.price_paise });
          }
          msg.error(errorMessage(e));
        },
      },
    ),
  );

  return (
    <Modal
      open
      title="Add New Service"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="add-service-form" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Wait...' : 'Submit'}
          </button>
        </>
      }
    >
      <form id="add-service-form" className="form" onSubmit={submit} noValidate>
        <Alert message={msg.message} onClose={msg.clear} />
        <Field label="Plan Type" htmlFor="as-plan" error={form.errors.plan_type}>
          <select id="as-plan" value={form.values.plan_type} onChange={(e) => form.setValue('plan_type', e.target.value)}>
            <option value="">Select plan type</option>
            {PLAN_TYPES.map((p) => (
              <option key={p} value={p}>
                {planName(p)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Service Name" htmlFor="as-service" error={form.errors.service}>
          <select id="as-service" value={form.values.service} onChange={(e) => form.setValue('service', e.target.value)}>
            <option value="">Select service</option>
            {services.map((s) => (
              <option key={s.service} value={s.service}>
                {s.name} ({s.service})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Price (₹)" htmlFor="as-price" error={form.errors.price}>
          <input id="as-price" type="text" inputMode="decimal" {...form.text('price')} />
        </Field>
      </form>
    </Modal>
  );
}
