import { expect, test } from '@playwright/test';

// The landing footer's policies each lead to a page of their own (the platform's text on the
// platform's address; a partner's own terms are covered by the API tests).

for (const [link, path, heading] of [
  ['Privacy policy', '/privacy-policy', 'Privacy policy'],
  ['Terms and conditions', '/terms-and-conditions', 'Terms and conditions'],
  ['Cancellation policy', '/cancellation-policy', 'Cancellation policy'],
] as const) {
  test(`the footer's ${link} opens its page`, async ({ page }) => {
    await page.goto('/');
    await page.locator('footer').getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('.policy p').first()).toBeVisible();
    expect(await page.locator('.policy p').count()).toBeGreaterThan(3);
    await page.screenshot({ path: `test-results/policy${path.replace(/\//g, '-')}.png`, fullPage: true });
    if (path === '/privacy-policy') {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: `test-results/policy${path.replace(/\//g, '-')}-phone.png`, fullPage: true });
    }
  });
}

test('the sign-in captcha placeholder is not cut off, at desktop and phone width', async ({ page }) => {
  // The e2e platform runs with CAPTCHA off, which serves no picture: give the form one of the
  // built-in captcha's size, the picture that squeezed the field.
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="170" height="56"><rect width="100%" height="100%" fill="#f3f5f9"/></svg>';
  await page.route('**/api/v1/auth/captcha', (route) =>
    route.fulfill({ json: { id: 'x', image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` } }),
  );
  await page.goto('/auth');
  await expect(page.getByRole('img', { name: 'Captcha' })).toBeVisible();
  const captcha = page.getByLabel('Captcha', { exact: true });
  await expect(captcha).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.waitForTimeout(200);
    const fits = await captcha.evaluate((el: HTMLInputElement) => {
      const style = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontSize} ${style.fontFamily}`;
      const text = ctx.measureText(el.placeholder).width;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text, room };
    });
    expect(fits.text, `placeholder at ${width}px`).toBeLessThanOrEqual(fits.room);
    await page.screenshot({ path: `test-results/captcha-${width}.png` });
  }
});
