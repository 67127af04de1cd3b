// Client details, Documentation: one documentation link field with Save; an https URL only.
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { isHttpsUrl, useClientSettings, useUpdateClientSettings } from '../api/client-settings';

export function DocumentationForm({ clientId }: { clientId: number }) {
  const settings = useClientSettings(clientId);
  if (settings.isLoading) return <p>Loading...</p>;
  if (settings.isError) return <Alert message={{ kind: 'error', text: errorMessage(settings.error) }} />;
  return <DocumentationFields clientId={clientId} initial={settings.data?.documentation_link ?? ''} />;
}

function DocumentationFields({ clientId, initial }: { clientId: number; initial: string }) {
  const [link, setLink] = useState(initial);
  const update = useUpdateClientSettings(clientId);
  const msg = useTimedMessage();
  const invalid = link.trim() !== '' && !isHttpsUrl(link.trim());
  return (
    <form
      className="form narrow-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (invalid) return;
        update.mutate(
          { documentation_link: link.trim() },
          { onSuccess: () => msg.success('Documentation link saved'), onError: (err) => msg.error(errorMessage(err)) },
        );
      }}
    >
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="field">
        <label htmlFor="documentation-link">Documentation link</label>
        <input
          id="documentation-link"
          type="url"
          value={link}
          placeholder="https://"
          aria-invalid={invalid}
          aria-describedby={invalid ? 'documentation-link-error' : undefined}
          onChange={(e) => setLink(e.target.value)}
        />
        {invalid && (
          <span id="documentation-link-error" className="field-error">
            Invalid URL
          </span>
        )}
      </div>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={invalid || update.isPending}>
          {update.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
