import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Visibility } from './get-visibility';
import { visibilityKeys, visibilityPath, type VisibilityScope } from './keys';

/** Shows or hides one API or one category; the answer is the scope's whole setting. */
export type VisibilityChange = { kind: 'api'; service: string; shown: boolean } | { kind: 'category'; category: string; shown: boolean };

const body = (c: VisibilityChange): Visibility =>
  c.kind === 'api' ? { apis: { [c.service]: c.shown }, categories: {} } : { apis: {}, categories: { [c.category]: c.shown } };

/**
 * Applied on selection: the choice shows at once (the radio follows the click) and goes back
 * if the server refuses it.
 */
export function useSetVisibility(s: VisibilityScope) {
  const qc = useQueryClient();
  const key = visibilityKeys.of(s);
  return useMutation({
    mutationFn: (c: VisibilityChange) => api.patch<Visibility>(visibilityPath(s), body(c)),
    onMutate: async (c) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<Visibility>(key);
      if (before) {
        const patch = body(c);
        qc.setQueryData<Visibility>(key, { apis: { ...before.apis, ...patch.apis }, categories: { ...before.categories, ...patch.categories } });
      }
      return { before };
    },
    onError: (_e, _c, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before);
    },
    onSuccess: (v) => qc.setQueryData(key, v),
  });
}
