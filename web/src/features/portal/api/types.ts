// The portal API's shapes (api/src/routes/portal/), as the end user's pages read them.
import type { Theme } from '@/lib/theme';

export type SiteApi = { service: string; name: string; category: string; price_paise: number };

export type PublicPortal = {
  subdomain: string;
  title: string;
  description: string;
  logo_url: string | null;
  favicon_url: string | null;
  theme: Theme;
  /** The partner's Landing page switch: its landing page at the root, else straight to sign-in. */
  landing_page: boolean;
  documentation_link: string | null;
  contact: { phone_number: string | null; email: string | null; address: string | null };
  signup: { create_account: boolean; forgot_password: boolean; terms: boolean; terms_html: string; copyright: string };
  /** The super admin's Batch Processing for the partner: the portal offers batch verification. */
  batch_processing: boolean;
  apis: SiteApi[];
};

export type WalletView = { balance_paise: number; low_balance_threshold_paise: number | null; low_balance_alerted: boolean };

export type Me = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  address_line1: string | null;
  address_line2: string | null;
  full_access: boolean;
  partner: { title: string; documentation_link: string | null; batch_processing: boolean };
  wallets: { api: WalletView; product: WalletView };
  low_balance: boolean;
};

export type UsageDay = { date: string; calls: number; successful: number; spend_paise: number };
export type UsageApi = { service: string; name: string; calls: number; successful: number; spend_paise: number };
export type Usage = {
  from: string;
  to: string;
  calls: number;
  successful: number;
  spend_paise: number;
  /** 0 to 100, one decimal; null with no settled call. */
  success_rate: number | null;
  days: UsageDay[];
  apis: UsageApi[];
};

export type UserSession = { token: string; user: { id: number; first_name: string; last_name: string } };
