// The four plan slabs and how screens name them.
export const PLAN_TYPES = ['default', 'standard', 'premium', 'pro'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

/** Plans tab labels (spec part 2, §2.16). */
export const SLAB_TABS: Record<PlanType, string> = {
  default: 'Slab 1 Default',
  standard: 'Slab 2 Standard',
  premium: 'Slab 3 Premium',
  pro: 'Slab 4 Pro',
};

export const isPlanType = (s: string | null | undefined): s is PlanType => PLAN_TYPES.includes(s as PlanType);

export const planName = (p: string | null | undefined) => (p ? p.charAt(0).toUpperCase() + p.slice(1) : '_');
