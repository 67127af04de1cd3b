// User Detail, Settings: Plan Status (Active / Inactive) and Access Control (Full Access /
// Partial Access); a choice is posted at once and the screen follows on success.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { errorMessage } from '@/lib/api-client';
import { useUpdateUser, type UserFlags } from '../api/update-user';
import type { User } from '../api/types';

type Choice = { label: string; value: boolean };

function RadioRow(props: { name: string; label: string; value: boolean; choices: [Choice, Choice]; disabled: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="field" role="radiogroup" aria-label={props.label}>
      <span className="field-label">{props.label}</span>
      <div className="radio-group">
        {props.choices.map((c) => (
          <label key={c.label}>
            <input type="radio" name={props.name} checked={props.value === c.value} disabled={props.disabled} onChange={() => props.onChange(c.value)} /> {c.label}
          </label>
        ))}
      </div>
    </div>
  );
}

/** `clientId` when the super admin sets a client's user. */
export function UserSettings({ user, clientId }: { user: User; clientId?: number }) {
  const update = useUpdateUser();
  const msg = useTimedMessage();
  const set = (flags: UserFlags) =>
    update.mutate({ userId: user.id, clientId, ...flags }, { onError: (e) => msg.error(errorMessage(e)) });
  return (
    <div className="form narrow-form">
      <Alert message={msg.message} onClose={msg.clear} />
      <RadioRow
        name="plan-status"
        label="Plan Status"
        value={user.is_active}
        choices={[{ label: 'Active', value: true }, { label: 'Inactive', value: false }]}
        disabled={update.isPending}
        onChange={(v) => set({ is_active: v })}
      />
      <RadioRow
        name="access-control"
        label="Access Control"
        value={user.full_access}
        choices={[{ label: 'Full Access', value: true }, { label: 'Partial Access', value: false }]}
        disabled={update.isPending}
        onChange={(v) => set({ full_access: v })}
      />
    </div>
  );
}
