// Webhook endpoints of the signed-in end user (portal) or partner (console): add one (its
// signing secret shown once), send a test event, roll the secret, enable or disable, delete,
// and follow an endpoint's deliveries (every attempt, the next one) with Replay.
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { DataTable } from '@/components/ui/data-table';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import { EVENTS, type Endpoint, type WebhookScope } from '../api/types';
import {
  endpointSchema,
  useCreateEndpoint,
  useDeleteEndpoint,
  useEndpoints,
  useRollSecret,
  useSendTest,
  useUpdateEndpoint,
} from '../api/webhooks';
import { Deliveries } from './deliveries';

type Shown = { title: string; secret: string; note: string };

export function Webhooks({ scope }: { scope: WebhookScope }) {
  const endpoints = useEndpoints(scope);
  const update = useUpdateEndpoint(scope);
  const remove = useDeleteEndpoint(scope);
  const roll = useRollSecret(scope);
  const test = useSendTest(scope);
  const [shown, setShown] = useState<Shown | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const fail = (err: unknown) => setMessage({ kind: 'error', text: errorMessage(err) });
  const open = endpoints.data?.find((e) => e.id === selected) ?? null;

  const columns: ColumnDef<Endpoint>[] = [
    { header: 'URL', cell: ({ row }) => <code className="break-all">{row.original.url}</code> },
    { header: 'Events', cell: ({ row }) => row.original.events.join(', ') },
    {
      header: 'Status',
      cell: ({ row }) => (row.original.enabled ? 'Enabled' : row.original.disabled_reason ? `Disabled: ${row.original.disabled_reason}` : 'Disabled'),
    },
    {
      header: 'Actions',
      cell: ({ row }) => {
        const ep = row.original;
        return (
          <div className="row-actions">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setSelected(ep.id)} aria-label={`Deliveries to ${ep.url}`}>
              Deliveries
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={!ep.enabled || test.isPending}
              aria-label={`Send test event to ${ep.url}`}
              onClick={() =>
                test.mutate(ep.id, {
                  onSuccess: () => {
                    setSelected(ep.id);
                    setMessage({ kind: 'success', text: 'Test event queued' });
                  },
                  onError: fail,
                })
              }
            >
              Send test event
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              aria-label={`Roll secret of ${ep.url}`}
              onClick={() =>
                roll.mutate(ep.id, {
                  onSuccess: ({ secret }) =>
                    setShown({ title: 'New signing secret', secret, note: 'The previous secret also signs deliveries for 24 hours, so you can switch over.' }),
                  onError: fail,
                })
              }
            >
              Roll secret
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              aria-label={`${ep.enabled ? 'Disable' : 'Enable'} ${ep.url}`}
              onClick={() => update.mutate({ id: ep.id, enabled: !ep.enabled }, { onError: fail })}
            >
              {ep.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" className="btn btn-danger btn-sm" aria-label={`Delete ${ep.url}`} onClick={() => setDeleting(ep)}>
              Delete
            </button>
          </div>
        );
      },
    },
  ];

  return (
    <>
      <AddEndpoint scope={scope} onCreated={(secret) => setShown({ title: 'Your endpoint is registered', secret, note: '' })} />
      {message && <Alert message={message} onClose={() => setMessage(null)} />}
      {endpoints.isError && <p role="alert">{errorMessage(endpoints.error)}</p>}
      <h2 className="panel-title">Endpoints</h2>
      <DataTable
        columns={columns}
        data={endpoints.data ?? []}
        pageCount={1}
        hidePaging
        isLoading={endpoints.isPending}
        emptyText="No webhook endpoints yet. Add one above."
        getRowId={(e) => String(e.id)}
      />
      {open && <Deliveries scope={scope} endpoint={open} onError={fail} />}

      <Modal open={!!shown} title={shown?.title ?? ''} onClose={() => setShown(null)}>
        {shown && (
          <div className="new-key">
            <p>Copy the signing secret now: it is shown only this once. Verify each delivery's webhook-signature header with it (Standard Webhooks).</p>
            <div className="copy-row">
              <code className="copy-url" data-testid="webhook-secret">
                {shown.secret}
              </code>
              <CopyButton text={shown.secret} label="Copy secret" />
            </div>
            {shown.note && <p className="muted">{shown.note}</p>}
          </div>
        )}
      </Modal>

      <ConfirmDialog
        open={!!deleting}
        title="Delete endpoint"
        message={deleting ? `Delete ${deleting.url} and its delivery log? Events are no longer sent to it.` : ''}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => selected === deleting.id && setSelected(null),
            onSettled: () => setDeleting(null),
            onError: fail,
          })
        }
      />
    </>
  );
}

function AddEndpoint({ scope, onCreated }: { scope: WebhookScope; onCreated: (secret: string) => void }) {
  const create = useCreateEndpoint(scope);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});
  const fieldsOf = (err: unknown) => (err instanceof ApiError ? err.fields : {});

  return (
    <form
      className="panel"
      aria-label="Add an endpoint"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = endpointSchema.safeParse({ url, events });
        if (!parsed.success) {
          const f = parsed.error.flatten().fieldErrors;
          return setErrors({ url: f.url?.[0], events: f.events?.[0] });
        }
        setErrors({});
        create.mutate(parsed.data, {
          onSuccess: (created) => {
            setUrl('');
            setEvents([]);
            onCreated(created.secret);
          },
          onError: (err) => {
            const f = fieldsOf(err);
            setErrors(f.url || f.events ? { url: f.url, events: f.events } : { form: errorMessage(err) });
          },
        });
      }}
    >
      <h2 className="panel-title">Add an endpoint</h2>
      {errors.form && <Alert message={{ kind: 'error', text: errors.form }} onClose={() => setErrors({})} />}
      <Field label="Endpoint URL" htmlFor={`webhook-url-${scope}`} error={errors.url} hint="Deliveries are signed POST requests to this URL; a 2xx answer within 15 seconds counts as received.">
        <input
          id={`webhook-url-${scope}`}
          type="url"
          inputMode="url"
          placeholder="https://example.com/webhooks"
          value={url}
          aria-invalid={!!errors.url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </Field>
      <fieldset className="checkbox-group" aria-describedby={errors.events ? `webhook-events-${scope}-error` : undefined}>
        <legend className="field-label">Events</legend>
        {EVENTS[scope].map((ev) => (
          <label key={ev.type}>
            <input
              type="checkbox"
              checked={events.includes(ev.type)}
              onChange={(e) => setEvents(e.target.checked ? [...events, ev.type] : events.filter((x) => x !== ev.type))}
            />{' '}
            {ev.label} <code>{ev.type}</code>
          </label>
        ))}
        {errors.events && (
          <span className="field-error" id={`webhook-events-${scope}-error`}>
            {errors.events}
          </span>
        )}
      </fieldset>
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Wait...' : 'Add endpoint'}
        </button>
      </div>
    </form>
  );
}

