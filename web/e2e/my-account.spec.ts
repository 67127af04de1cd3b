import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { deflateSync } from 'node:zlib';
import { signInPartner } from './support/sign-in';

// My Account, every tab, and the dashboard's earnings, on the seeded demo partner: what each
// tab shows at desktop and phone width (screenshots in test-results/), no serious axe-core
// violation, Signup Customization applied only on 'Apply changes', the card provider's keys
// only ever masked, the QR code's 1 MB rule and default instruction.

const DEFAULT_QR_INSTRUCTION =
  'Scan the QR code to pay the amount you want to add, including GST, and share a screenshot of the payment with us. Your wallet is credited once the payment is confirmed.';

/** A real PNG of `size` x `size` black and white cells (a stand-in QR code or logo): the server
 * checks a file by its first bytes, the browser draws the preview. */
function checkerPng(size: number, cell: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(size + 1);
    for (let x = 0; x < size; x++) row[x + 1] = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 0 : 255;
    rows.push(row);
  }
  const idat = deflateSync(Buffer.concat(rows));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
const PNG = checkerPng(160, 16);

/** Each tab with something that shows it has loaded. */
const TABS: [string, string, (page: Page) => Promise<void>][] = [
  ['Basic', 'basic', (p) => expect(p.getByLabel('Documentation link')).toBeVisible()],
  ['Theme', 'theme', (p) => expect(p.getByLabel('Title')).not.toHaveValue('')],
  ['SMTP', 'smtp', (p) => expect(p.getByRole('button', { name: 'Send test mail' })).toBeVisible()],
  ['Signup Customization', 'signup', (p) => expect(p.getByRole('button', { name: 'Apply changes' })).toBeVisible()],
  ['Payment', 'payment', (p) => expect(p.getByRole('tab', { name: 'Qr Code' })).toBeVisible()],
  ['Settings', 'settings', (p) => expect(p.getByRole('radiogroup', { name: 'Server Security' })).toBeVisible()],
  ['Contact details', 'contact', (p) => expect(p.getByLabel('Address')).toBeVisible()],
];

/** `within`: only that part (an open modal: the page behind its backdrop is dimmed on purpose). */
async function noSeriousAxeViolations(page: Page, within?: string) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (within ? axe.include(within) : axe).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function openMyAccount(page: Page) {
  await signInPartner(page);
  await page.getByRole('link', { name: 'My Account' }).click();
  await expect(page).toHaveURL(/\/my-account/);
}

test('My Account: every tab at desktop and phone width, with no serious axe violation', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Tall enough that a tab fits without the shell's fixed parts repeating in a full-page shot.
  await page.setViewportSize({ width: 1280, height: 1200 });
  await openMyAccount(page);
  for (const [label, key, ready] of TABS) {
    await page.getByRole('tab', { name: label, exact: true }).click();
    await expect(page.getByRole('tab', { name: label, exact: true })).toHaveAttribute('aria-selected', 'true');
    await ready(page);
    await noSeriousAxeViolations(page);
    await page.screenshot({ path: `test-results/my-account-${key}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [label, key, ready] of TABS) {
    // Straight to the tab by its URL, loaded afresh at phone width.
    await page.goto(`/my-account${key === 'basic' ? '' : `?tab=${key}`}`);
    await expect(page.getByRole('tab', { name: label, exact: true })).toHaveAttribute('aria-selected', 'true');
    await ready(page);
    await noSidewaysScroll(page);
    await page.screenshot({ path: `test-results/my-account-${key}-phone.png`, fullPage: true });
  }
  expect(errors).toEqual([]);
});

test('Signup Customization: the switches apply only on Apply changes, with the terms from the editor', async ({ page, request }) => {
  await openMyAccount(page);
  await page.getByRole('tab', { name: 'Signup Customization' }).click();
  const google = page.getByRole('switch', { name: /Login with Google/ });
  const apply = page.getByRole('button', { name: 'Apply changes' });
  await expect(google).not.toBeChecked();
  await expect(apply).toBeDisabled();

  // Toggled but not applied: a reload shows what is saved.
  await google.click();
  await expect(google).toBeChecked();
  await expect(apply).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('switch', { name: /Login with Google/ })).not.toBeChecked();

  await page.getByRole('switch', { name: /Login with Google/ }).click();
  const editor = page.getByRole('textbox', { name: 'Terms and conditions' });
  await editor.click();
  await page.getByRole('button', { name: 'Heading' }).click();
  await page.keyboard.type('Demo KYC terms');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type('Calls are charged when they succeed.');
  await page.getByLabel('Copyright').fill('© 2026 Demo KYC');
  await apply.click();
  await expect(page.getByText('Changes applied')).toBeVisible();
  await expect(apply).toBeDisabled();
  await page.screenshot({ path: 'test-results/my-account-signup-applied.png', fullPage: true });

  await page.reload();
  await expect(page.getByRole('switch', { name: /Login with Google/ })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Terms and conditions' }).getByRole('heading', { name: 'Demo KYC terms' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Terms and conditions' }).locator('strong')).toHaveText('Calls are charged when they succeed.');
  // The end users' site reads what was applied.
  const portal = await (await request.get('/api/v1/public/portal?subdomain=demo')).json();
  expect(portal.signup.terms_html).toBe('<h3>Demo KYC terms</h3><p><strong>Calls are charged when they succeed.</strong></p>');
  expect(portal.signup.copyright).toBe('© 2026 Demo KYC');

  // Back as it was, for the portal's own specs.
  await page.getByRole('switch', { name: /Login with Google/ }).click();
  await page.getByRole('textbox', { name: 'Terms and conditions' }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.getByLabel('Copyright').fill('');
  await page.getByRole('button', { name: 'Apply changes' }).click();
  await expect(page.getByText('Changes applied')).toBeVisible();
  const after = await (await request.get('/api/v1/public/portal?subdomain=demo')).json();
  expect(after.signup.terms_html).toBe('');
});

test('Payment: the card provider in a modal, its keys only ever masked; the QR code with the 1 MB rule', async ({ page }) => {
  await openMyAccount(page);
  await page.getByRole('tab', { name: 'Payment' }).click();
  await expect(page.getByRole('tab', { name: 'Card Payment' })).toHaveAttribute('aria-selected', 'true');

  await page.getByRole('button', { name: 'Add new' }).click();
  const modal = page.getByRole('dialog', { name: 'Card payment provider' });
  await modal.getByRole('button', { name: 'Save' }).click();
  for (const m of ['Key id is required', 'Key secret is required', 'Name is required', 'Please select a file', 'Minimum API amount is required']) {
    await expect(modal.getByText(m)).toBeVisible();
  }
  await noSeriousAxeViolations(page, '[role="dialog"]');
  await page.screenshot({ path: 'test-results/my-account-payment-modal-errors.png' });
  await modal.getByLabel('Key Id').fill('rzp_test_DemoKey7788');
  await modal.getByLabel('Key Secret', { exact: true }).fill('DemoSecret_do_not_show_4455');
  await modal.getByLabel('Name').fill('Razorpay');
  await modal.getByLabel('Description').fill('Cards, UPI and netbanking');
  await modal.getByLabel('Logo').setInputFiles({ name: 'razorpay.png', mimeType: 'image/png', buffer: PNG });
  await expect(modal.getByRole('img', { name: 'Logo preview' })).toBeVisible();
  await modal.getByLabel('Minimum API amount (₹)').fill('500');
  await modal.getByLabel('Minimum product amount (₹)').fill('1000.50');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Payment settings saved')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(page.getByText('********7788')).toBeVisible();
  await expect(page.getByText('₹1,000.50')).toBeVisible();
  await page.reload();
  await expect(page.getByText('********7788')).toBeVisible();
  const shown = await page.content();
  expect(shown).not.toContain('DemoKey7788');
  expect(shown).not.toContain('DemoSecret');
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/my-account-payment-card.png', fullPage: true });

  await page.getByRole('tab', { name: 'Qr Code' }).click();
  await expect(page).toHaveURL(/sub=qr/);
  await expect(page.getByText(DEFAULT_QR_INSTRUCTION)).toBeVisible();
  await page.getByLabel('QR code', { exact: true }).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) });
  await expect(page.getByText('File size is too large. Please select a file smaller than 1MB.')).toBeVisible();
  await page.getByLabel('QR code', { exact: true }).setInputFiles({ name: 'upi qr.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'QR code preview' })).toBeVisible();
  await page.getByLabel('Description').fill('Pay to demo@upi including GST and send us the screenshot.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('QR code saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Description')).toHaveValue('Pay to demo@upi including GST and send us the screenshot.');
  await expect(page.getByText(DEFAULT_QR_INSTRUCTION)).toHaveCount(0);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/my-account-payment-qr.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel('Description')).toBeVisible();
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/my-account-payment-qr-phone.png', fullPage: true });
});

test('Dashboard: earnings of a chosen period, per day as a chart and per API as a table', async ({ page }) => {
  await signInPartner(page);
  const earnings = page.getByRole('region', { name: 'Earnings' });
  await expect(earnings.locator('.tile-label', { hasText: 'Revenue' })).toBeVisible();
  await expect(earnings.locator('.tile-value').first()).toHaveText(/₹/);
  await expect(earnings.locator('.recharts-surface').first()).toBeVisible();
  await expect(earnings.locator('.data-table tbody tr').first()).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/dashboard-earnings.png', fullPage: true });

  // A longer period: the URL keeps it, the revenue does not shrink.
  const before = await earnings.locator('.tile-value').first().textContent();
  const from = new Date(Date.now() - 119 * 86_400_000).toISOString().slice(0, 10);
  await earnings.getByLabel('From').fill(from);
  await earnings.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${from}`));
  await expect(earnings.getByText(/successful calls/)).toBeVisible();
  const after = await earnings.locator('.tile-value').first().textContent();
  const paise = (t: string | null) => Number((t ?? '').replace(/[^\d]/g, ''));
  expect(paise(after)).toBeGreaterThanOrEqual(paise(before));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(earnings.locator('.recharts-surface').first()).toBeVisible();
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/dashboard-earnings-phone.png', fullPage: true });
});
