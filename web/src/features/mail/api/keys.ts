// Query keys of the mail feature (the outbox as the super admin reads it).
export const mailKeys = {
  all: ['mail'] as const,
  list: (page: number) => [...mailKeys.all, 'list', page] as const,
  detail: (id: string) => [...mailKeys.all, 'detail', id] as const,
};
