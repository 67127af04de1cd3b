// Query keys of the exports feature: every query and invalidation of it goes through here.
import type { ExportKind } from './types';

export type ExportsFilter = { kind?: ExportKind; userId?: number };

export const exportsKeys = {
  all: ['exports'] as const,
  lists: () => [...exportsKeys.all, 'list'] as const,
  list: (filter: ExportsFilter, page: number) => [...exportsKeys.lists(), filter, { page }] as const,
  detail: (id: number) => [...exportsKeys.all, 'detail', id] as const,
};
