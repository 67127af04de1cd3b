// Query keys of the visibility feature: every query and invalidation of it goes through here.
export type VisibilityScope = { scope: 'partner' } | { scope: 'user'; id: number };

export const visibilityKeys = {
  all: ['visibility'] as const,
  of: (s: VisibilityScope) => [...visibilityKeys.all, s.scope === 'user' ? s.id : 'partner'] as const,
};

export const visibilityPath = (s: VisibilityScope) => (s.scope === 'user' ? `/partner/users/${s.id}/visibility` : '/partner/visibility');
