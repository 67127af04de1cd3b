import { useCallback, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export type TabItem<K extends string> = { key: K; label: ReactNode };

type TabsProps<K extends string> = {
  tabs: TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  vertical?: boolean;
  children?: ReactNode;
};

export function Tabs<K extends string>({ tabs, active, onChange, vertical, children }: TabsProps<K>) {
  return (
    <div className={vertical ? 'tabs tabs-vertical' : 'tabs'}>
      <div className="tab-list" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            aria-selected={t.key === active}
            className={t.key === active ? 'tab active' : 'tab'}
            onClick={() => onChange(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {children !== undefined && (
        <div className="tab-panel" role="tabpanel">
          {children}
        </div>
      )}
    </div>
  );
}

/**
 * The open tab kept in the URL (`?tab=key`), so reload and the back button keep it. Changing
 * tab drops the list state of the previous one (page, category, and the params in `drop`).
 */
export function useTabParam<K extends string>(keys: readonly K[], fallback: K, param = 'tab', drop: readonly string[] = []): [K, (key: K) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(param);
  const active = keys.includes(raw as K) ? (raw as K) : fallback;
  // A string, so a literal list at the call site does not make a new callback each render.
  const dropped = drop.join(',');
  const setActive = useCallback(
    (key: K) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        p.delete('page');
        p.delete('category');
        for (const d of dropped.split(',')) if (d) p.delete(d);
        if (key === fallback) p.delete(param);
        else p.set(param, key);
        return p;
      }),
    [fallback, param, setParams, dropped],
  );
  return [active, setActive];
}
