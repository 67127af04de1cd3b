import type { ReactNode } from 'react';

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
