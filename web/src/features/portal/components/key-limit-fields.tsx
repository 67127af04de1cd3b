// The name, IP list and API list of a key: the same fields on the create form and the edit
// dialog, so both say the same thing about an empty list (no limit).
import { Field } from '@/components/ui/field';
import type { FieldErrors } from '@/lib/form';
import { MAX_KEY_IPS, type KeyMode } from '../api/api-keys';
import { useApis } from '../api/apis';

/** What the fields hold: the IPs as typed, the services as picked. */
export type LimitValues = { name: string; allowed_ips: string; allowed_services: string[] };

type Props = {
  /** Prefixes the inputs' ids: both forms may be on the page at once. */
  id: string;
  values: LimitValues;
  errors: FieldErrors<LimitValues>;
  /** The server's field messages, shown when the form has none of its own. */
  serverErrors?: Record<string, string>;
  onText: (key: 'name' | 'allowed_ips', value: string) => void;
  onServices: (services: string[]) => void;
  /** A sandbox key calls only the sandbox list: only those are offered. */
  mode: KeyMode;
};

export function KeyLimitFields({ id, values, errors, serverErrors = {}, onText, onServices, mode }: Props) {
  const apis = useApis();
  const offered = (apis.data ?? []).filter((o) => mode === 'live' || o.sandbox);
  // A service picked earlier stays selectable even if it is no longer offered.
  const extra = values.allowed_services.filter((s) => !offered.some((o) => o.service === s));
  return (
    <>
      <Field label="Name" htmlFor={`${id}-name`} error={errors.name ?? serverErrors.name} hint="Say where the key is used, e.g. Production server.">
        <input id={`${id}-name`} type="text" maxLength={100} value={values.name} onChange={(e) => onText('name', e.target.value)} />
      </Field>
      <Field
        label="Allowed IP addresses"
        htmlFor={`${id}-ips`}
        error={errors.allowed_ips ?? serverErrors.allowed_ips}
        hint={`One address or CIDR network per line (such as 203.0.113.7 or 10.0.0.0/8), at most ${MAX_KEY_IPS}. Empty: calls from any address.`}
      >
        <textarea id={`${id}-ips`} rows={3} value={values.allowed_ips} onChange={(e) => onText('allowed_ips', e.target.value)} spellCheck={false} />
      </Field>
      <Field
        label="APIs this key may call"
        htmlFor={`${id}-services`}
        error={errors.allowed_services ?? serverErrors.allowed_services}
        hint="None selected: every API you may call. Ctrl-click (⌘-click on a Mac) picks several."
      >
        <select
          id={`${id}-services`}
          multiple
          size={6}
          value={values.allowed_services}
          onChange={(e) => onServices(Array.from(e.target.selectedOptions, (o) => o.value))}
        >
          {offered.map((o) => (
            <option key={o.service} value={o.service}>
              {o.name} ({o.service})
            </option>
          ))}
          {extra.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

/** What the list says of a key's limits. */
export function limitsText(ips: string[], services: string[]): { ips: string; services: string } {
  return {
    ips: ips.length === 0 ? 'Any address' : ips.join(', '),
    services: services.length === 0 ? 'All APIs' : services.join(', '),
  };
}
