// Step 3: the partner's sub-domain. Claiming it starts a provisioning job,
// which we poll until it settles.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage, GENERIC_ERROR } from '@/lib/api-client';
import { setPartnerToken } from '@/lib/auth';
import { platformDomain } from '@/lib/brand';
import { validate } from '@/lib/form';
import { jobState, useJob } from '@/lib/jobs';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import {
  SUBDOMAIN_AVAILABLE,
  SUBDOMAIN_TAKEN,
  claimSubdomain,
  subdomainSchema,
  useSubdomainAvailability,
} from '../api/subdomain';

export function SubdomainStep({ userName, onDone }: { userName: string; onDone: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [jobId, setJobId] = useState<string | null>(null);
  const msg = useTimedMessage();
  const checked = useDebouncedValue(name.trim().toLowerCase(), 300);
  const availability = useSubdomainAvailability(checked);
  const job = useJob(jobId);
  const state = jobId ? jobState(job.data) : null;

  const claim = useMutation({ mutationFn: claimSubdomain });

  const showError = msg.error;
  // Each job's outcome is acted on once; a failed job stays settled (not pending), so the form
  // is free again and the next claim starts a new job.
  const settled = useRef<string | null>(null);
  const lastError = job.data?.last_error;
  useEffect(() => {
    if (!jobId || settled.current === jobId || (state !== 'done' && state !== 'failed')) return;
    settled.current = jobId;
    if (state === 'done') onDone();
    else showError(lastError || GENERIC_ERROR);
  }, [jobId, state, lastError, onDone, showError]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(subdomainSchema, { subdomain: name });
    if (!r.ok) return setError(r.errors.subdomain);
    setError(undefined);
    setName(r.data.subdomain);
    claim.mutate(r.data.subdomain, {
      onSuccess: (res) => {
        if (res.token) setPartnerToken(res.token);
        setJobId(res.job_id);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 409) setError(SUBDOMAIN_TAKEN);
        else msg.error(errorMessage(err));
      },
    });
  };

  const busy = claim.isPending || state === 'pending';
  const current = !error && checked && checked === name.trim().toLowerCase();
  const showAvailability = current && availability.data;

  return (
    <form className="form narrow-center" onSubmit={submit} noValidate aria-label="Upload domain details">
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label="User name" htmlFor="sd-user">
        <input id="sd-user" type="text" value={userName} readOnly disabled />
      </Field>
      <Field label="Website name" htmlFor="sd-name" error={error}>
        <div className="input-suffix">
          <input id="sd-name" type="text" value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} />
          <span>.{platformDomain()}</span>
        </div>
        {showAvailability &&
          (availability.data.available ? (
            <span className="field-ok">{SUBDOMAIN_AVAILABLE}</span>
          ) : (
            <span className="field-error">{SUBDOMAIN_TAKEN}</span>
          ))}
        {current && availability.isError && <span className="field-error">{errorMessage(availability.error)}</span>}
      </Field>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Wait...' : 'Submit'}
      </button>
    </form>
  );
}
