// My Account, Basic: the documentation link, https only; Save is disabled and 'Invalid URL'
// shows while it is not one (spec part 2, §5).
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { documentationLinkSchema, usePartnerSettings, useUpdateSettings } from '../api/settings';

function LinkForm({ saved }: { saved: string }) {
  const [link, setLink] = useState(saved);
  const update = useUpdateSettings();
  const msg = useTimedMessage();
  const valid = documentationLinkSchema.safeParse({ documentation_link: link }).success;
  return (
    <form
      className="form"
      noValidate
      aria-label="Basic"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        update.mutate(
          { documentation_link: link.trim() },
          { onSuccess: () => msg.success('Documentation link saved'), onError: (err) => msg.error(errorMessage(err)) },
        );
      }}
    >
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label="Documentation link" htmlFor="doc-link" error={link && !valid ? 'Invalid URL' : undefined}>
        <input id="doc-link" type="url" inputMode="url" placeholder="https://docs.example.com" value={link} onChange={(e) => setLink(e.target.value)} aria-invalid={!!link && !valid} />
      </Field>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={!valid || update.isPending}>
          {update.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

export function DocumentationLinkForm() {
  const q = usePartnerSettings();
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (!q.data) return <p className="muted">Loading...</p>;
  return <LinkForm saved={q.data.documentation_link ?? ''} />;
}
