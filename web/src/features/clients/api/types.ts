/** A partner as the super admin sees it. */
export type Client = {
  id: number;
  user_name: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  plan: string | null;
  subdomain: string | null;
  is_active: boolean;
  email_verified?: boolean;
  created_at: string;
};

export const clientName = (c: Pick<Client, 'first_name' | 'last_name'>) => `${c.first_name} ${c.last_name}`.trim();
