// My Account, Settings: Server Security, Landing page and Charge sandbox calls, each Enabled or
// Disabled, applied the moment one is chosen. While Server Security is on the gateway lets only
// Whitelist IP's addresses through; sandbox calls are free unless charging them is on.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { usePartnerSettings, useUpdateSettings, type PartnerSettings } from '../api/settings';

type Flag = 'server_security' | 'landing_page' | 'charge_sandbox';

function EnabledDisabled({ name, label, hint, value, disabled, onChange }: { name: Flag; label: string; hint: string; value: boolean; disabled: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="field" role="radiogroup" aria-label={label}>
      <span className="field-label">{label}</span>
      <span className="field-hint">{hint}</span>
      <div className="radio-group">
        <label>
          <input type="radio" name={name} checked={value} disabled={disabled} onChange={() => onChange(true)} /> Enabled
        </label>
        <label>
          <input type="radio" name={name} checked={!value} disabled={disabled} onChange={() => onChange(false)} /> Disabled
        </label>
      </div>
    </div>
  );
}

export function SiteSettings() {
  const q = usePartnerSettings();
  const update = useUpdateSettings();
  const msg = useTimedMessage();
  const set = (flag: Flag, value: boolean, label: string) =>
    update.mutate({ [flag]: value } as Partial<PartnerSettings>, {
      onSuccess: () => msg.success(`${label} ${value ? 'enabled' : 'disabled'}`),
      onError: (e) => msg.error(errorMessage(e)),
    });
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (!q.data) return <p className="muted">Loading...</p>;
  return (
    <div className="form">
      <Alert message={msg.message} onClose={msg.clear} />
      <EnabledDisabled
        name="server_security"
        label="Server Security"
        hint="When enabled, your users' API calls are accepted only from their whitelisted IPs."
        value={q.data.server_security}
        disabled={update.isPending}
        onChange={(v) => set('server_security', v, 'Server Security')}
      />
      <EnabledDisabled
        name="landing_page"
        label="Landing page"
        hint="When enabled, your site's address shows your landing page; otherwise it opens sign-in."
        value={q.data.landing_page}
        disabled={update.isPending}
        onChange={(v) => set('landing_page', v, 'Landing page')}
      />
      <EnabledDisabled
        name="charge_sandbox"
        label="Charge sandbox calls"
        hint="When enabled, your users' sandbox calls are charged at their live prices, to rehearse the money flow; otherwise they are free."
        value={q.data.charge_sandbox}
        disabled={update.isPending}
        onChange={(v) => set('charge_sandbox', v, 'Charge sandbox calls')}
      />
    </div>
  );
}
