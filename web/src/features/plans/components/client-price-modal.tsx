// API Pricing's 'Add new' and edit modal: the service, its price and status, and the entry's
// catalogue fields (name, category, services, method, end point, documentation link, param
// and header param names, description, curl code, response code; spec part 2 §7.2), which are
// the catalogue's and edited on API's. The edit modal has Save and Delete; Delete asks 'Delete
// Account' with Don't delete / Delete.
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage, ApiError } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { paiseToRupees } from '@/lib/money';
import { useDeleteClientPrice } from '../api/delete-client-price';
import { usePricedApi, type PricedApi } from '../api/get-priced-api';
import type { CustomPrice } from '../api/get-client-prices';
import { clientPriceSchema, useSaveClientPrice, type ClientPriceForm } from '../api/save-client-price';

export type ServiceOption = { api_id: number; service: string; name: string; category: string };

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** The catalogue fields of the chosen API, read-only. */
function ApiFields({ api }: { api: PricedApi }) {
  const rows: [string, string, boolean?][] = [
    ['Name', api.name],
    ['Category', api.category],
    ['Services', api.service],
    ['Method', api.method.toUpperCase()],
    ['End Point', api.endpoint],
    ['Documentation Link', api.documentation_link],
    ['Param Name', api.param_name || '_'],
    ['Header Param Name', api.header_param_name || '_'],
    ['Description', api.description],
    ['Curl Code', api.curl_code, true],
    ['Response Code', text(api.response_code), true],
  ];
  return (
    <dl className="api-fields">
      {rows.map(([k, v, code]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{code ? <pre>{v}</pre> : v}</dd>
        </div>
      ))}
    </dl>
  );
}

type Props = {
  clientId: number;
  /** The entry being edited; null for 'Add new'. */
  entry: CustomPrice | null;
  services: ServiceOption[];
  onClose: () => void;
  onDone: (text: string) => void;
};

export function ClientPriceModal({ clientId, entry, services, onClose, onDone }: Props) {
  const form = useZodForm<typeof clientPriceSchema, ClientPriceForm>(clientPriceSchema, {
    service: entry?.service ?? '',
    price: entry ? paiseToRupees(entry.price_paise) : '',
    status: entry?.status ?? true,
  });
  const msg = useTimedMessage();
  const save = useSaveClientPrice(clientId);
  const remove = useDeleteClientPrice(clientId);
  const [confirm, setConfirm] = useState(false);
  const apiId = entry?.api_id ?? services.find((s) => s.service === form.values.service)?.api_id ?? null;
  const details = usePricedApi(apiId);

  const submit = form.handleSubmit((data) =>
    save.mutate(
      { clientId, service: data.service, price_paise: data.price, status: data.status },
      {
        onSuccess: () => onDone(entry ? 'Price updated successfully' : 'Price added successfully'),
        onError: (e) => {
          if (e instanceof ApiError) {
            const f = e.fields;
            form.setErrors({ service: f['prices[0].service'] ?? f.service, price: f['prices[0].price_paise'] ?? f.price_paise });
          }
          msg.error(errorMessage(e));
        },
      },
    ),
  );

  const doDelete = () =>
    entry &&
    remove.mutate(
      { clientId, service: entry.service },
      {
        onSuccess: () => onDone('Price deleted successfully'),
        onError: (e) => {
          setConfirm(false);
          msg.error(errorMessage(e));
        },
      },
    );

  return (
    <>
      <Modal
        open={!confirm}
        title={entry ? 'Edit API Pricing' : 'Add API Pricing'}
        onClose={onClose}
        footer={
          <>
            {entry && (
              <button type="button" className="btn btn-danger" onClick={() => setConfirm(true)}>
                Delete
              </button>
            )}
            <button type="submit" form="client-price-form" className="btn btn-primary" disabled={save.isPending}>
              {save.isPending ? 'Wait...' : 'Save'}
            </button>
          </>
        }
      >
        <form id="client-price-form" className="form" onSubmit={submit} noValidate>
          <Alert message={msg.message} onClose={msg.clear} />
          <Field label="Service" htmlFor="cp-service" error={form.errors.service}>
            {entry ? (
              <input id="cp-service" type="text" value={`${entry.name} (${entry.service})`} readOnly />
            ) : (
              <select id="cp-service" value={form.values.service} onChange={(e) => form.setValue('service', e.target.value)}>
                <option value="">Select service</option>
                {services.map((s) => (
                  <option key={s.service} value={s.service}>
                    {s.name} ({s.service})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Price (₹)" htmlFor="cp-price" error={form.errors.price}>
            <input id="cp-price" type="text" inputMode="decimal" {...form.text('price')} />
          </Field>
          {details.data && <ApiFields api={details.data} />}
          <div className="field" role="radiogroup" aria-label="Status">
            <span className="field-label">Status</span>
            <div className="radio-group">
              <label>
                <input type="radio" name="cp-status" checked={form.values.status} onChange={() => form.setValue('status', true)} /> Active
              </label>
              <label>
                <input type="radio" name="cp-status" checked={!form.values.status} onChange={() => form.setValue('status', false)} /> Inactive
              </label>
            </div>
          </div>
        </form>
      </Modal>
      <ConfirmDialog
        open={confirm}
        title="Delete Account"
        message={entry ? `Delete the customised price of ${entry.name}? The client pays its plan price again.` : ''}
        confirmLabel="Delete"
        cancelLabel="Don't delete"
        danger
        busy={remove.isPending}
        onConfirm={doDelete}
        onCancel={() => setConfirm(false)}
      />
    </>
  );
}
