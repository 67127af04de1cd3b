// API's: the add / edit modal with every catalogue field; the edit modal leads to a delete
// confirmation.
import { useState, type ReactNode } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { apiFormSchema, formErrorsFrom, initialForm, toPayload, type ApiForm } from '../api/api-form';
import { useCreateApi } from '../api/create-api';
import { useDeleteApi } from '../api/delete-api';
import { useUpdateApi } from '../api/update-api';
import type { CatalogueApi } from '../api/types';

type Props = { api: CatalogueApi | null; onClose: () => void; onDone: (text: string) => void };

export function ApiFormModal({ api, onClose, onDone }: Props) {
  const form = useZodForm<typeof apiFormSchema, ApiForm>(apiFormSchema, initialForm(api));
  const msg = useTimedMessage();
  const create = useCreateApi();
  const update = useUpdateApi();
  const remove = useDeleteApi();
  const [confirm, setConfirm] = useState(false);
  const saving = create.isPending || update.isPending;

  const onError = (e: unknown) => {
    if (e instanceof ApiError) form.setErrors(formErrorsFrom(e.fields));
    msg.error(errorMessage(e));
  };

  const submit = form.handleSubmit((data) => {
    const body = toPayload(data);
    if (api) update.mutate({ id: api.id, body }, { onSuccess: () => onDone('API updated successfully'), onError });
    else create.mutate(body, { onSuccess: () => onDone('API added successfully'), onError });
  });

  const text = (key: keyof ApiForm & string, label: ReactNode, opts: { area?: boolean; placeholder?: string; hint?: string } = {}) => {
    const id = `api-${key}`;
    return (
      <Field label={label} htmlFor={id} error={form.errors[key]} hint={opts.hint}>
        {opts.area ? (
          <textarea id={id} rows={4} placeholder={opts.placeholder} {...form.text(key)} />
        ) : (
          <input id={id} type="text" placeholder={opts.placeholder} {...form.text(key)} />
        )}
      </Field>
    );
  };

  const check = (key: 'is_hidden' | 'is_verified' | 'is_new' | 'status', label: string) => (
    <label className="checkbox">
      <input type="checkbox" checked={form.values[key]} onChange={(e) => form.setValue(key, e.target.checked)} /> {label}
    </label>
  );

  return (
    <>
      <Modal
        open={!confirm}
        size="lg"
        title={api ? 'Edit API' : 'Add API'}
        onClose={onClose}
        footer={
          <>
            {api && (
              <button type="button" className="btn btn-danger" onClick={() => setConfirm(true)}>
                Delete
              </button>
            )}
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" form="api-form" className="btn btn-primary" disabled={saving}>
              {saving ? 'Wait...' : 'Save'}
            </button>
          </>
        }
      >
        <form id="api-form" className="form" onSubmit={submit} noValidate>
          <Alert message={msg.message} onClose={msg.clear} />
          <div className="form-row">
            {text('name', 'Name')}
            {text('category', 'Category')}
          </div>
          <div className="form-row">
            {text('service', 'Service', { hint: 'Lower-case letters, digits and underscores' })}
            {text('pid', 'PID', { placeholder: 'Generated when empty' })}
          </div>
          {text('description', 'Description', { area: true })}
          <div className="form-row">
            {text('endpoint', 'Endpoint')}
            <Field label="Method" htmlFor="api-method" error={form.errors.method}>
              <select id="api-method" value={form.values.method} onChange={(e) => form.setValue('method', e.target.value as 'get' | 'post')}>
                <option value="get">get</option>
                <option value="post">post</option>
              </select>
            </Field>
          </div>
          {text('documentation_link', 'Documentation link')}
          {text('curl_code', 'Curl code', { area: true })}
          {text('response_code', 'Response code', { area: true, placeholder: '{"key":"value"}' })}
          <div className="form-row">
            {text('param_name', 'Param name')}
            {text('header_param_name', 'Header param name')}
          </div>
          <div className="form-row">
            {text('required_fields', 'Required fields', { placeholder: 'pan, name' })}
            {text('default_price', 'Default price (₹)')}
          </div>
          <div className="check-row">
            {check('status', 'Active')}
            {check('is_verified', 'Verified')}
            {check('is_new', 'New')}
            {check('is_hidden', 'Hidden')}
          </div>
        </form>
      </Modal>
      <ConfirmDialog
        open={confirm}
        title="Delete API"
        message={api ? `Are you sure you want to delete ${api.name}?` : ''}
        confirmLabel="Delete"
        cancelLabel="Don't delete"
        danger
        busy={remove.isPending}
        onConfirm={() =>
          api &&
          remove.mutate(api.id, {
            onSuccess: () => onDone('API deleted successfully'),
            onError: (e) => {
              setConfirm(false);
              msg.error(errorMessage(e));
            },
          })
        }
        onCancel={() => setConfirm(false)}
      />
    </>
  );
}
