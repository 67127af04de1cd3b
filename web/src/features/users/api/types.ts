/** One of the partner's end users. */
export type User = {
  id: number;
  partner_id?: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  is_active: boolean;
  full_access: boolean;
  address_name?: string | null;
  address1?: string | null;
  address2?: string | null;
  address3?: string | null;
  created_at: string;
};

export const fullName = (u: Pick<User, 'first_name' | 'last_name'>) => `${u.first_name} ${u.last_name}`.trim();
