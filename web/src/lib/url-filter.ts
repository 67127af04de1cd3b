// A list's filter held in the URL (`?user_id=…&date=…`), so reload, the back button and a
// shared link keep it; applying or clearing it goes back to page 1 (style.md, TanStack's
// query-router-search-params).
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type FilterValues<K extends string> = Record<K, string>;

/** One input of a filter panel. */
export type FilterField<K extends string> = {
  key: K;
  label: string;
  type?: 'text' | 'date';
  numeric?: boolean;
  /** A choice instead of free text; the empty value is 'All'. */
  options?: { value: string; label: string }[];
};

export function useUrlFilter<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const snapshot = JSON.stringify(keys.map((k) => params.get(k) ?? ''));
  // `snapshot` holds every value of `keys`: the object changes only when one of them does.
  const values = useMemo(() => {
    const list = JSON.parse(snapshot) as string[];
    return Object.fromEntries(keys.map((k, i) => [k, list[i]])) as FilterValues<K>;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [snapshot]);
  const apply = useCallback(
    (next: FilterValues<K>) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        for (const k of keys) {
          const v = (next[k] ?? '').trim();
          if (v) p.set(k, v);
          else p.delete(k);
        }
        p.delete('page');
        return p;
      }),
    [keys, setParams],
  );
  const clear = useCallback(
    () =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        for (const k of keys) p.delete(k);
        p.delete('page');
        return p;
      }),
    [keys, setParams],
  );
  return { values, apply, clear, active: keys.some((k) => values[k] !== '') };
}
