// Client details, Settings (spec part 2 §2.15): Test api, Update API Base Url, Update Domain,
// Batch Processing, User Status and Restrict ALL APIs, each saved as it is chosen. Change Plan
// (the plans feature) sits beside it, placed by the route.
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorMessage } from '@/lib/api-client';
import {
  isHttpsUrl,
  useClientSettings,
  useUpdateClientDomain,
  useUpdateClientSettings,
  type ClientSettings,
  type ClientSettingsPatch,
} from '../api/client-settings';

type Choice = { key: 'test_api' | 'batch_processing' | 'is_active' | 'restrict_all_apis'; title: string; on: string; off: string };

const CHOICES: Choice[] = [
  { key: 'test_api', title: 'Test api', on: 'Enable', off: 'Disable' },
  { key: 'batch_processing', title: 'Batch Processing', on: 'Enable', off: 'Disable' },
  { key: 'is_active', title: 'User Status', on: 'true', off: 'false' },
  { key: 'restrict_all_apis', title: 'Restrict ALL APIs', on: 'true', off: 'false' },
];

type PanelProps = {
  clientId: number;
  subdomain: string | null | undefined;
  /** After Update Domain: what shows the client's sub-domain refreshes. */
  onDomainChanged?: () => void;
};

export function ClientSettingsPanel({ clientId, subdomain, onDomainChanged }: PanelProps) {
  const settings = useClientSettings(clientId);
  const update = useUpdateClientSettings(clientId);
  const msg = useTimedMessage();
  const [baseUrlOpen, setBaseUrlOpen] = useState(false);
  const [domainOpen, setDomainOpen] = useState(false);
  const s = settings.data;

  const save = (patch: ClientSettingsPatch, done: string) =>
    update.mutate(patch, { onSuccess: () => msg.success(done), onError: (err) => msg.error(errorMessage(err)) });

  if (settings.isLoading) return <p>Loading...</p>;
  if (settings.isError || !s) return <Alert message={{ kind: 'error', text: errorMessage(settings.error) }} />;
  return (
    <div className="settings-panel">
      <Alert message={msg.message} onClose={msg.clear} />
      {CHOICES.map((c) => (
        <div className="field settings-row" key={c.key}>
          <label htmlFor={`setting-${c.key}`}>{c.title}</label>
          <select
            id={`setting-${c.key}`}
            value={s[c.key] ? 'on' : 'off'}
            disabled={update.isPending}
            onChange={(e) => save({ [c.key]: e.target.value === 'on' }, `${c.title} updated`)}
          >
            <option value="on">{c.on}</option>
            <option value="off">{c.off}</option>
          </select>
        </div>
      ))}
      <div className="field settings-row">
        <span className="field-label">API Base Url</span>
        <span className="muted settings-value">{s.base_url_active && s.base_url ? s.base_url : 'Platform default'}</span>
        <button type="button" className="btn btn-secondary" onClick={() => setBaseUrlOpen(true)}>
          Update API Base Url
        </button>
      </div>
      <div className="field settings-row">
        <span className="field-label">Domain</span>
        <span className="muted settings-value">{subdomain || '_'}</span>
        <button type="button" className="btn btn-secondary" onClick={() => setDomainOpen(true)}>
          Update Domain
        </button>
      </div>
      {domainOpen && (
        <DomainModal
          clientId={clientId}
          current={subdomain ?? ''}
          onClose={() => setDomainOpen(false)}
          onDone={(name) => {
            setDomainOpen(false);
            msg.success(`Domain updated to ${name}`);
            onDomainChanged?.();
          }}
        />
      )}
      {baseUrlOpen && (
        <BaseUrlModal
          settings={s}
          busy={update.isPending}
          onClose={() => setBaseUrlOpen(false)}
          onSave={(patch) =>
            update.mutate(patch, {
              onSuccess: () => {
                msg.success('API Base Url updated');
                setBaseUrlOpen(false);
              },
              onError: (err) => msg.error(errorMessage(err)),
            })
          }
        />
      )}
    </div>
  );
}

function BaseUrlModal({ settings, busy, onClose, onSave }: { settings: ClientSettings; busy: boolean; onClose: () => void; onSave: (p: ClientSettingsPatch) => void }) {
  const [active, setActive] = useState(settings.base_url_active);
  const [url, setUrl] = useState(settings.base_url ?? '');
  const invalid = active && !isHttpsUrl(url.trim(), ['https:', 'http:']);
  return (
    <Modal
      open
      title="Update API Base Url"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={invalid || busy}
            onClick={() => onSave(active ? { base_url: url.trim(), base_url_active: true } : { base_url_active: false })}
          >
            {busy ? 'Wait...' : 'Save'}
          </button>
        </>
      }
    >
      <div className="form">
        <div className="field">
          <label htmlFor="base-url-status">Status</label>
          <select id="base-url-status" value={String(active)} onChange={(e) => setActive(e.target.value === 'true')}>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="old-base-url">Old Base Url</label>
          <input id="old-base-url" type="text" value={settings.old_base_url ?? ''} disabled readOnly />
        </div>
        <div className="field">
          <label htmlFor="base-url">Base Url</label>
          <input
            id="base-url"
            type="url"
            value={url}
            disabled={!active}
            placeholder="https://"
            aria-invalid={invalid && url !== ''}
            onChange={(e) => setUrl(e.target.value)}
          />
          {active && url.trim() !== '' && invalid && <span className="field-error">Invalid URL</span>}
        </div>
      </div>
    </Modal>
  );
}

function DomainModal({ clientId, current, onClose, onDone }: { clientId: number; current: string; onClose: () => void; onDone: (name: string) => void }) {
  const [name, setName] = useState(current);
  const update = useUpdateClientDomain(clientId);
  const [error, setError] = useState<string | null>(null);
  const blank = name.trim() === '';
  return (
    <Modal
      open
      title="Update Domain"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={blank || update.isPending}
            onClick={() => {
              setError(null);
              update.mutate(name.trim(), {
                onSuccess: (r) => onDone(r.subdomain),
                onError: (e) => setError(e instanceof ApiError ? (e.fields.subdomain ?? e.message) : errorMessage(e)),
              });
            }}
          >
            {update.isPending ? 'Wait...' : 'Save'}
          </button>
        </>
      }
    >
      <div className="form">
        <div className="field">
          <label htmlFor="client-subdomain">Subdomain</label>
          <input id="client-subdomain" type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!error} />
          {error && <span className="field-error">{error}</span>}
        </div>
      </div>
    </Modal>
  );
}
