import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { visibilityKeys, visibilityPath, type VisibilityScope } from './keys';

/** The explicit settings of a scope; what is absent is shown. */
export type Visibility = {
  apis: Record<string, boolean>;
  categories: Record<string, boolean>;
  /** Services the super admin hid for this client: hidden whatever the partner sets. */
  hidden_by_platform?: string[];
};

/** Shown unless explicitly false (spec part 2, §2.5). */
export const isShown = (map: Record<string, boolean> | undefined, key: string) => map?.[key] !== false;

/** Categories compare case-insensitively on the server: so does the screen. */
export const categoryShown = (v: Visibility | undefined, category: string) =>
  !Object.entries(v?.categories ?? {}).some(([k, shown]) => k.toLowerCase() === category.toLowerCase() && shown === false);

export const visibilityQueryOptions = (s: VisibilityScope) =>
  queryOptions({ queryKey: visibilityKeys.of(s), queryFn: () => api.get<Visibility>(visibilityPath(s)) });

export function useVisibility(s: VisibilityScope) {
  return useQuery(visibilityQueryOptions(s));
}
