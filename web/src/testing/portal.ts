// Answers of the portal API for tests of the portal's pages.
export const portalSite = {
  subdomain: 'demo',
  title: 'Demo KYC - Home',
  description: 'Verify your customers in seconds.',
  logo_url: null,
  favicon_url: null,
  theme: { primary: '#0F766E', secondary: '#7C3AED', tertiary: '#F59E0B' },
  landing_page: true,
  documentation_link: 'https://docs.demo.test',
  contact: { phone_number: '+91 98765 43210', email: 'help@demo.test', address: '12 MG Road\nBengaluru' },
  signup: { create_account: true, forgot_password: true, terms: true, terms_html: '<p>Be <b>fair</b>.</p>', copyright: '© Demo KYC Pvt Ltd' },
  batch_processing: false,
  apis: [
    { service: 'pan_check', name: 'PAN verification', category: 'identity', price_paise: 123456750 },
    { service: 'gst_check', name: 'GST verification', category: 'business', price_paise: 1500 },
    { service: 'aadhaar_otp', name: 'Aadhaar OTP', category: 'identity', price_paise: 250 },
  ],
};

export const portalMe = {
  id: 7,
  first_name: 'Aarav',
  last_name: 'Sharma',
  email: 'aarav@example.in',
  phone_number: '9876543210',
  address_line1: '1 Park Street',
  address_line2: null,
  full_access: true,
  partner: { title: 'Demo KYC - Home', documentation_link: 'https://docs.demo.test', batch_processing: false },
  wallets: {
    api: { balance_paise: 12345678, low_balance_threshold_paise: null, low_balance_alerted: false },
    product: { balance_paise: 50000, low_balance_threshold_paise: null, low_balance_alerted: false },
  },
  low_balance: false,
};

export const portalUsage = {
  from: '2026-10-26',
  to: '2026-11-24',
  calls: 3,
  successful: 2,
  spend_paise: 3000,
  success_rate: 66.7,
  days: [
    { date: '2026-11-23', calls: 1, successful: 1, spend_paise: 1500 },
    { date: '2026-11-24', calls: 2, successful: 1, spend_paise: 1500 },
  ],
  apis: [{ service: 'gst_check', name: 'GST verification', calls: 3, successful: 2, spend_paise: 3000 }],
};
