// Client details, API Status (spec part 2 §2.15): one accordion section per catalogue category,
// with Show or Hide for the whole category in its header and for each API inside it. The super
// admin's setting is over whatever the partner sets; shown unless explicitly hidden.
import { useState } from 'react';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { categoryShown, isShown, useVisibility } from '../api/get-visibility';
import type { VisibilityScope } from '../api/keys';
import { useSetVisibility, type VisibilityChange } from '../api/set-visibility';
import { ShowHide } from './show-hide';
import type { VisibleApi } from './visibility-table';

/** The spec's API status messages go after 2 seconds. */
const TOGGLE_MESSAGE_MS = 2000;

type Props = { scope: VisibilityScope; apis: VisibleApi[]; loading?: boolean };

export function VisibilityAccordion({ scope, apis, loading }: Props) {
  const v = useVisibility(scope);
  const set = useSetVisibility(scope);
  const msg = useTimedMessage(TOGGLE_MESSAGE_MS);
  const [open, setOpen] = useState<Record<string, boolean>>({});

  if (loading || v.isLoading) return <Spinner />;
  const categories = [...new Set(apis.map((a) => a.category))].sort((a, b) => a.localeCompare(b));
  const change = (c: VisibilityChange, what: string) =>
    set.mutate(c, {
      onSuccess: () => msg.success(`${what} is ${c.shown ? 'shown' : 'hidden'}`),
      onError: (e) => msg.error(errorMessage(e)),
    });
  const disabled = set.isPending || !v.data;

  return (
    <div className="accordion">
      <Alert message={msg.message} onClose={msg.clear} />
      {v.isError && <Alert message={{ kind: 'error', text: errorMessage(v.error) }} />}
      {categories.length === 0 && <p className="empty-state">No apis available</p>}
      {categories.map((category) => {
        const expanded = open[category] ?? false;
        const inCategory = apis.filter((a) => a.category === category);
        const catShown = categoryShown(v.data, category);
        const panelId = `api-status-${category.replace(/[^a-z0-9]+/gi, '-')}`;
        return (
          <section key={category} className="accordion-item">
            <div className="accordion-header">
              <button
                type="button"
                className="accordion-toggle"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen((o) => ({ ...o, [category]: !expanded }))}
              >
                <span aria-hidden="true" className="accordion-chevron">{expanded ? '▾' : '▸'}</span>
                <span className="accordion-title">{category}</span>
                <span className="muted">({inCategory.length})</span>
              </button>
              <ShowHide
                label={`Category ${category}`}
                name={`category-${category}`}
                shown={catShown}
                disabled={disabled}
                onChange={(shown) => change({ kind: 'category', category, shown }, category)}
              />
            </div>
            {expanded && (
              <ul id={panelId} className="accordion-panel">
                {inCategory.map((a) => (
                  <li key={a.service} className="accordion-row">
                    <span>
                      {a.name} <code className="muted">{a.service}</code>
                      {!catShown && <span className="muted"> · hidden with its category</span>}
                    </span>
                    <ShowHide
                      label={a.name}
                      name={`api-${a.service}`}
                      shown={isShown(v.data?.apis, a.service)}
                      disabled={disabled}
                      onChange={(shown) => change({ kind: 'api', service: a.service, shown }, a.name)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
