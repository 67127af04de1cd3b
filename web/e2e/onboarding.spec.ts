import { expect, test } from '@playwright/test';
import { waitForLink } from './support/outbox';
import { submitPartnerSignIn } from './support/sign-in';

// A new partner from the sign-up form to its admin dashboard, through the real platform: the
// verification mail is read from the outbox the worker writes to, the sub-domain is claimed by
// the provision_subdomain job, and the logo and favicon go through signed upload links.

// 1×1 PNG images: a logo and a favicon small enough for their limits.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M/wHwAEBgIApD5fRAAAAABJRU5ErkJggg==',
  'base64',
);

test('a new partner signs up, verifies the e-mail, signs in, completes the wizard and reaches the dashboard', async ({ page, context }) => {
  test.setTimeout(90_000);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const userName = `e2e${stamp}`;
  const email = `${userName}@example.test`;
  const password = 'Partner-e2e-1';

  // Step 1: basic details, then the 'Verify email !' popup.
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Signup for whitelabel' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/auth');
  await page.getByLabel('First name').fill('Asha');
  await page.getByLabel('Last name').fill('Verma');
  await page.getByLabel('Phone number').fill('9876543210');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.screenshot({ path: 'test-results/onboarding-1-signup.png', fullPage: true });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('dialog')).toContainText('Verify email !');

  // Signing in before the address is verified is refused.
  await submitPartnerSignIn(page, email, password);
  await expect(page.getByRole('alert')).toContainText('Error!');
  await expect(page).toHaveURL(/\/auth$/);

  // The link of the verification mail.
  const link = await waitForLink(email, /https?:\/\/[^\s"<>]+\/verify-email\/[A-Za-z0-9_-]+/);
  await page.goto(new URL(link).pathname);
  await expect(page.getByText('Your email is verified successfully, You can login to your dashboard.')).toBeVisible();
  // Not signed in here: the page goes to sign-in, not to a blank sign-up form.
  await expect(page).toHaveURL(/\/auth$/, { timeout: 5_000 });
  await expect(page.getByLabel('Email')).toBeVisible();

  // The link is used up.
  await page.goto(new URL(link).pathname);
  await expect(page.getByText('Error Updating Status')).toBeVisible();

  // Sign-in with no sub-domain yet goes to the wizard's pricing step.
  await submitPartnerSignIn(page, email, password);
  await expect(page).toHaveURL(/\/complete-details$/);
  await expect(page.getByRole('button', { name: 'Buy now' }).first()).toBeVisible();
  await page.screenshot({ path: 'test-results/onboarding-2-pricing.png', fullPage: true });
  await page.getByRole('article').filter({ hasText: 'Premium' }).getByRole('button', { name: 'Buy now' }).click();

  // Step 3: the sub-domain, checked for availability and claimed by a job.
  const website = page.getByLabel('Website name');
  await expect(website).toBeVisible();
  await expect(page.getByLabel('User name')).toHaveValue(userName);
  await website.fill('demo');
  await expect(page.getByText('This username is not available.')).toBeVisible();
  await website.fill(userName.toUpperCase());
  await expect(page.getByText('This username is available.')).toBeVisible();
  await page.screenshot({ path: 'test-results/onboarding-3-subdomain.png', fullPage: true });
  await page.getByRole('button', { name: 'Submit' }).click();

  // Step 4: logo and meta, with the spec's defaults.
  await expect(page.getByLabel('Title')).toHaveValue(`${userName} - Home`, { timeout: 20_000 });
  await expect(page.getByLabel('Description')).toHaveValue(`${userName} - API KYC Solution`);
  await expect(page.getByLabel('Primary colour', { exact: true })).toHaveValue('#6091E2');
  await expect(page.getByLabel('Secondary colour', { exact: true })).toHaveValue('#9462E7');
  await expect(page.getByLabel('Tertiary colour', { exact: true })).toHaveValue('#00FFFB');
  // Next without files names what is missing and stays.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please select a file').first()).toBeVisible();
  // A favicon over 10 KB is refused in the page.
  await page.getByLabel('Favicon', { exact: true }).setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(11 * 1024, 1) });
  await expect(page.getByText('File size is too large. Please select a file smaller than 10KB.')).toBeVisible();
  await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'my logo.png', mimeType: 'image/png', buffer: PNG });
  await page.getByLabel('Favicon', { exact: true }).setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByAltText('Logo preview')).toBeVisible();
  await expect(page.getByAltText('Favicon preview')).toBeVisible();
  await page.getByLabel('Title').fill('Asha KYC');
  await page.getByLabel('Primary colour', { exact: true }).fill('#112233');
  await page.screenshot({ path: 'test-results/onboarding-4-branding.png', fullPage: true });
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 5: SMTP details, with Submit and Skip; required fields are named.
  await expect(page.getByRole('button', { name: 'Skip' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(/required/i).first()).toBeVisible();
  await page.getByLabel('Host').fill('smtp.example.test');
  await page.getByLabel('Port').fill('587');
  await page.getByLabel('User email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('smtp-secret-1');
  await page.getByLabel('From').fill(email);
  await page.getByLabel('Company name').fill('Asha KYC Pvt Ltd');
  await page.screenshot({ path: 'test-results/onboarding-5-smtp.png', fullPage: true });
  await page.getByRole('button', { name: 'Submit' }).click();

  // Step 6: the two links.
  await expect(page.getByRole('link', { name: 'Go to admin dashboard' })).toBeVisible();
  const userDashboard = page.locator('.copy-url');
  await expect(userDashboard).toContainText(`${userName}.`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy user dashboard link' }).click();
  await expect(page.getByText('Copied to clipboard')).toBeVisible();
  await page.screenshot({ path: 'test-results/onboarding-6-link.png', fullPage: true });

  // The whole wizard is done: a reload stays on step 6, and the dashboard opens.
  await page.reload();
  await expect(page.getByRole('link', { name: 'Go to admin dashboard' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to admin dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('API Wallet')).toBeVisible();
  await expect(page.getByText('Transactions', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/onboarding-7-dashboard.png', fullPage: true });

  // Signing in again goes straight to the dashboard.
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await submitPartnerSignIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The new partner's own site carries its title and colour.
  const port = new URL(page.url()).port;
  await page.goto(`http://${userName}.localhost:${port}/`);
  await expect(page).toHaveTitle('Asha KYC');
  const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-primary').trim());
  expect(primary.toUpperCase()).toBe('#112233');
});

test("the demo partner's sub-domain shows its title, name and colours", async ({ page, request }) => {
  const port = new URL(test.info().project.use.baseURL ?? 'http://localhost').port;
  const branding = await (await request.get(`/api/v1/public/branding?subdomain=demo`)).json();
  expect(branding.title).toBeTruthy();
  await page.goto(`http://demo.localhost:${port}/`);
  await expect(page).toHaveTitle(branding.title);
  // The header names the partner, not the platform, and the buttons wear its primary colour.
  const name = branding.title.replace(/ - Home$/, '');
  await expect(page.locator('.site-header .brand-text')).toHaveAccessibleName(`${name} home`);
  const signIn = page.locator('.site-header').getByRole('link', { name: 'Sign in' });
  await expect(signIn).toHaveCSS('border-color', rgb(branding.theme.primary));
  await page.screenshot({ path: 'test-results/demo-branded.png', fullPage: true });

  // Its users' sign-in page too (the portal's); the platform's own address stays unbranded.
  await page.goto(`http://demo.localhost:${port}/login`);
  await expect(page.locator('.auth-header .brand-text')).toHaveAccessibleName(`${name} home`);
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCSS('background-color', rgb(branding.theme.primary));
  await page.goto('/auth');
  await expect(page.locator('.auth-header .brand-text')).not.toHaveText(name);
});

function rgb(hex: string): string {
  const n = parseInt(hex.replace('#', ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
