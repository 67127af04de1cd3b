// One API's documentation for the user who may call it: what it does, its price, its fields
// (name, format, example), the sandbox's test values, a sample answer, the errors it can give
// and code samples in curl, Python and JavaScript on the user's own site with a key placeholder.
import type { ColumnDef } from '@tanstack/react-table';
import { CopyButton } from '@/components/ui/copy-button';
import { DataTable } from '@/components/ui/data-table';
import { formatRupees } from '@/lib/format';
import type { Offer } from '../api/apis';
import { curlExample, javascriptExample, pythonExample } from '../api/curl';

type ErrorRow = [number, string, string];

const ERRORS: ErrorRow[] = [
  [401, 'unauthorized', 'No key, or an unknown, revoked or expired key.'],
  [402, 'insufficient_balance', 'Your wallet cannot cover the call. Nothing is charged.'],
  [403, 'forbidden', 'Your account is inactive, the calling address is not allowed, or the key may not call this API.'],
  [404, 'not_found', 'No API by this name.'],
  [422, 'validation_failed', 'A required field is missing or blank; each is named in error.fields.'],
  [429, 'rate_limited', "Over the key's calls per minute; Retry-After says when to try again."],
  [502, 'upstream_error', 'The verification source failed. The call is refunded.'],
  [504, 'upstream_timeout', 'The verification source did not answer in time. The call is refunded.'],
];

const FIELD_COLUMNS: ColumnDef<string>[] = [
  { header: 'Field', cell: ({ row }) => <code>{row.original}</code> },
  { header: 'Format', cell: () => 'Text, required' },
  { header: 'Example', cell: ({ row }) => <code>{`<${row.original}>`}</code> },
];

const ERROR_COLUMNS: ColumnDef<ErrorRow>[] = [
  { header: 'Status', cell: ({ row }) => row.original[0] },
  { header: 'Code', cell: ({ row }) => <code>{row.original[1]}</code> },
  { header: 'When', cell: ({ row }) => row.original[2] },
];

function Sample({ title, text }: { title: string; text: string }) {
  return (
    <section className="code-sample" aria-label={title}>
      <h3 className="panel-title">{title}</h3>
      <pre>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={`Copy the ${title} example`}>{`Copy ${title}`}</CopyButton>
    </section>
  );
}

export function ApiDoc({ origin, offer }: { origin: string; offer: Offer }) {
  const fields = offer.required_fields;
  return (
    <div className="api-doc">
      {offer.description && <p>{offer.description}</p>}
      <p>
        <strong>{formatRupees(offer.price_paise)}</strong> per successful call (only a 2xx answer is charged).{' '}
        <code className="break-all">POST /api/v1/verify/{offer.service}</code> with your key in the <code>X-Api-Key</code> header.
      </p>

      <h3 className="panel-title">Fields</h3>
      <DataTable
        columns={FIELD_COLUMNS}
        data={fields}
        pageCount={1}
        hidePaging
        emptyText="No field is required: send an empty JSON object."
        getRowId={(f) => f}
      />

      {offer.sandbox && (
        <>
          <h3 className="panel-title">Sandbox test values</h3>
          <p>
            With a sandbox key (free unless your provider charges sandbox calls), any field holding <code>TEST_NOT_FOUND</code> answers
            that no record matches; <code>TEST_UPSTREAM_FAILURE</code> answers 502 as a failing source would, and is not charged; any
            other value answers the sample below with your input in its fields and a fresh <code>request_id</code>.
          </p>
        </>
      )}

      <h3 className="panel-title">Sample answer</h3>
      <pre className="break-all">
        <code>{JSON.stringify(offer.sample_response ?? {}, null, 2)}</code>
      </pre>

      <h3 className="panel-title">Errors</h3>
      <p className="muted small">
        Every error answers <code>{'{"error": {"code", "message", "fields"}}'}</code>.
      </p>
      <DataTable columns={ERROR_COLUMNS} data={ERRORS} pageCount={1} hidePaging emptyText="" getRowId={(e) => String(e[0])} />

      <p className="muted small">Replace YOUR_API_KEY with one of your keys (API Keys) and each &lt;field&gt; with its value.</p>
      <Sample title="curl" text={curlExample(origin, offer.service, fields)} />
      <Sample title="Python" text={pythonExample(origin, offer.service, fields)} />
      <Sample title="JavaScript" text={javascriptExample(origin, offer.service, fields)} />
    </div>
  );
}
