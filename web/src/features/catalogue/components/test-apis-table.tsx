// Test API's (super admin): the sandbox list, 10 per page; 'Add new' puts a catalogue API on
// it, Remove takes one off (it stays in the catalogue).
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { usePageParam } from '@/components/ui/data-table';
import { QueryTable } from '@/components/ui/query-table';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { addTestApiSchema, useAddTestApi, type AddTestApiForm } from '../api/add-test-api';
import { useCatalogueSummary } from '../api/get-catalogue-summary';
import { useTestApis } from '../api/get-test-apis';
import { useRemoveTestApi } from '../api/remove-test-api';
import type { CatalogueApi } from '../api/types';

const PAGE_SIZE = 10;

export function TestApisTable() {
  const [page] = usePageParam();
  const apis = useTestApis(page);
  const msg = useTimedMessage();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<CatalogueApi | null>(null);
  const remove = useRemoveTestApi();

  const columns: ColumnDef<CatalogueApi>[] = [
    { id: 'n', header: '#', cell: ({ row }) => (page - 1) * PAGE_SIZE + row.index + 1 },
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
    { id: 'service', header: 'Service', cell: ({ row }) => row.original.service },
    { id: 'pid', header: 'PID', cell: ({ row }) => row.original.pid },
    { id: 'method', header: 'Method', cell: ({ row }) => row.original.method },
    {
      id: 'remove',
      header: '',
      cell: ({ row }) => (
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setRemoving(row.original)}>
          Remove
        </button>
      ),
    },
  ];

  return (
    <div className="page">
      <div className="toolbar">
        <span className="muted">{apis.data ? `${apis.data.total} sandbox APIs` : ''}</span>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          Add new
        </button>
      </div>
      <Alert message={msg.message} onClose={msg.clear} />
      <QueryTable
        query={apis}
        columns={columns}
        pageSize={PAGE_SIZE}
        emptyText="No apis available"
        getRowId={(r) => String(r.id)}
      />
      {adding && (
        <AddTestApiModal
          onClose={() => setAdding(false)}
          onDone={() => {
            setAdding(false);
            msg.success('API added successfully', 1000);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove test API"
        message={removing ? `Take ${removing.name} off the test API list? It stays in the catalogue.` : ''}
        confirmLabel="Remove"
        danger
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null);
              msg.success('API removed successfully', 1000);
            },
            onError: (e) => {
              setRemoving(null);
              msg.error(errorMessage(e));
            },
          })
        }
      />
    </div>
  );
}

function AddTestApiModal({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const catalogue = useCatalogueSummary('superadmin');
  const form = useZodForm<typeof addTestApiSchema, AddTestApiForm>(addTestApiSchema, { service: '' });
  const add = useAddTestApi();
  const msg = useTimedMessage();
  const choices = (catalogue.data?.items ?? []).filter((a) => !a.is_sandbox);
  const submit = form.handleSubmit((d) => add.mutate(d.service, { onSuccess: onDone, onError: (e) => msg.error(errorMessage(e)) }));
  return (
    <Modal
      open
      title="Add test API"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="test-api-form" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Wait...' : 'Save'}
          </button>
        </>
      }
    >
      <form id="test-api-form" className="form" onSubmit={submit} noValidate>
        <Alert message={msg.message} onClose={msg.clear} />
        <Field label="Service Name" htmlFor="ta-service" error={form.errors.service}>
          <select id="ta-service" value={form.values.service} onChange={(e) => form.setValue('service', e.target.value)}>
            <option value="">Select service</option>
            {choices.map((a) => (
              <option key={a.service} value={a.service}>
                {a.name} ({a.service})
              </option>
            ))}
          </select>
        </Field>
      </form>
    </Modal>
  );
}
