// Query keys of the policies feature: every query of it goes through here.

/** The policies a site shows; also the last part of their paths. */
export type PolicyKind = 'privacy' | 'terms' | 'cancellation';

export const policiesKeys = {
  all: ['policies'] as const,
  one: (kind: PolicyKind) => [...policiesKeys.all, kind] as const,
};
