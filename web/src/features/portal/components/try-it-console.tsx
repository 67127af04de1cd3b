// The Try-it console: a sandbox call of any API the console may call, with a form built from
// the API's required fields. It shows the answer, its status, the amount charged and the
// transaction id, then the API wallet's new balance.
import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatRupees } from '@/lib/format';
import { useZodForm } from '@/lib/form';
import { useApis, type Offer } from '../api/apis';
import { tryItSchema, useTryIt, type TryResult } from '../api/try-it';

export function TryItConsole({ initialService }: { initialService?: string }) {
  const apis = useApis();
  const callable = useMemo(() => (apis.data ?? []).filter((a) => a.sandbox).sort((a, b) => a.name.localeCompare(b.name)), [apis.data]);
  const [service, setService] = useState(initialService ?? '');
  const offer = callable.find((a) => a.service === service) ?? callable[0];

  if (apis.isPending) return <p className="muted">Loading...</p>;
  if (apis.isError) return <p role="alert">{errorMessage(apis.error)}</p>;
  if (!offer) return <div className="empty-state"><p>No API can be tried from here yet. Please contact us.</p></div>;

  return (
    <div className="try-it">
      <div className="panel">
        <p className="muted small">
          Calls from this console are sandbox calls: they answer sample data and are charged to your API wallet at your price, like live calls.
        </p>
        <div className="field">
          <label htmlFor="try-service">API</label>
          <select id="try-service" value={offer.service} onChange={(e) => setService(e.target.value)}>
            {callable.map((a) => (
              <option key={a.service} value={a.service}>
                {a.name} ({formatRupees(a.price_paise)})
              </option>
            ))}
          </select>
        </div>
        <TryItForm key={offer.service} offer={offer} />
      </div>
    </div>
  );
}

function TryItForm({ offer }: { offer: Offer }) {
  const schema = useMemo(() => tryItSchema(offer.required_fields), [offer.required_fields]);
  const form = useZodForm(schema, Object.fromEntries(offer.required_fields.map((f) => [f, ''])) as Record<string, string>);
  const call = useTryIt();
  const fieldErrors = call.error instanceof ApiError ? call.error.fields : {};

  return (
    <>
      <form
        className="form"
        noValidate
        aria-label={`Try ${offer.name}`}
        onSubmit={form.handleSubmit((input) => call.mutate({ service: offer.service, input: input as Record<string, string> }))}
      >
        {offer.required_fields.length === 0 && <p className="muted">This API needs no input.</p>}
        {offer.required_fields.map((f) => (
          <Field key={f} label={<code>{f}</code>} htmlFor={`try-${f}`} error={form.errors[f] ?? fieldErrors[f]}>
            <input id={`try-${f}`} type="text" autoComplete="off" {...form.text(f)} />
          </Field>
        ))}
        <div>
          <button type="submit" className="btn btn-primary" disabled={call.isPending}>
            {call.isPending ? 'Wait...' : `Send (${formatRupees(offer.price_paise)})`}
          </button>
        </div>
      </form>
      {call.isError && <Alert message={{ kind: 'error', text: errorMessage(call.error) }} />}
      {call.data && <TryItResult result={call.data} />}
    </>
  );
}

export function TryItResult({ result }: { result: TryResult }) {
  const ok = result.status_code >= 200 && result.status_code < 300;
  return (
    <section className="try-result" aria-label="Result" aria-live="polite">
      <dl className="detail-grid">
        <div>
          <dt>Status</dt>
          <dd className={ok ? 'try-ok' : 'try-bad'} data-testid="try-status">
            {result.status_code}
          </dd>
        </div>
        <div>
          <dt>Amount charged</dt>
          <dd data-testid="try-charged">{formatRupees(result.charged_paise)}</dd>
        </div>
        <div>
          <dt>Transaction ID</dt>
          <dd data-testid="try-transaction">{result.transaction_id}</dd>
        </div>
        <div>
          <dt>Verification ID</dt>
          <dd>{result.verification_id}</dd>
        </div>
        <div>
          <dt>New balance</dt>
          <dd data-testid="try-balance">{formatRupees(result.balance_paise)}</dd>
        </div>
      </dl>
      <h3 className="tab-title">Response</h3>
      <pre className="json-view" tabIndex={0} aria-label="Response body">
        {JSON.stringify(result.body, null, 2)}
      </pre>
    </section>
  );
}
