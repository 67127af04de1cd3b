// A partner's branding, applied as CSS variables so every component picks it up.
export type Theme = { primary: string; secondary: string; tertiary: string };

export const DEFAULT_THEME: Theme = { primary: '#6091E2', secondary: '#9462E7', tertiary: '#00FFFB' };

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * The colours of the site this page is served on. On a partner's sub-domain the server puts
 * the partner's colours into index.html as --brand-* variables (api/src/routes/web.rs), so
 * the first paint is already branded; elsewhere they are absent and the platform's apply.
 */
export function siteTheme(root: HTMLElement = document.documentElement): Theme {
  const css = getComputedStyle(root);
  const read = (name: keyof Theme) => {
    const v = css.getPropertyValue(`--brand-${name}`).trim();
    return HEX.test(v) ? v : DEFAULT_THEME[name];
  };
  return { primary: read('primary'), secondary: read('secondary'), tertiary: read('tertiary') };
}

/** [r, g, b] 0-255 of a #rgb or #rrggbb colour. */
function rgb(hex: string): [number, number, number] {
  let h = hex.slice(1);
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

const hexOf = (c: [number, number, number]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
function luminance(c: [number, number, number]): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(rgb(a)), luminance(rgb(b))].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
}

/** The dark text the platform uses where white would not read. */
export const DARK_TEXT = '#111827';

/** Text on a fill of `colour`: white or dark, whichever reads better (AA wants 4.5:1). */
export function textOn(colour: string): string {
  const [white, dark] = [contrast(colour, '#ffffff'), contrast(colour, DARK_TEXT)];
  if (Math.max(white, dark) >= 4.5) return white >= dark ? '#ffffff' : DARK_TEXT;
  // Some mid tones reach 4.5:1 only against pure black (white or black always reaches 4.58).
  return white >= contrast(colour, '#000000') ? '#ffffff' : '#000000';
}

/**
 * `colour` as text or a thin line on the page's light surfaces: the colour itself when it
 * reads at 4.5:1 on white and on a tinted surface (#e9edf5), else darkened towards black until it does. So a
 * pale brand colour still gives readable links and active tabs.
 */
export function readableOnLight(colour: string, surface = '#e9edf5'): string {
  const c = rgb(colour);
  for (let k = 0; k <= 20; k++) {
    const f = 1 - k * 0.05;
    const candidate = hexOf([c[0] * f, c[1] * f, c[2] * f]);
    if (contrast(candidate, surface) >= 4.5 && contrast(candidate, '#ffffff') >= 4.5) return candidate;
  }
  return DARK_TEXT;
}

/**
 * Applies `theme`; `null` goes back to the site's own colours. Beside the three colours it
 * sets what text needs for contrast whatever the brand colour: `--on-primary` (text on a
 * primary fill) and `--primary-text` (the primary as text on light surfaces).
 */
export function applyTheme(theme: Partial<Theme> | null | undefined, root: HTMLElement = document.documentElement) {
  const base = siteTheme(root);
  const t = { ...base, ...(theme ?? {}) };
  const primary = HEX.test(t.primary) ? t.primary : base.primary;
  root.style.setProperty('--primary', primary);
  root.style.setProperty('--secondary', HEX.test(t.secondary) ? t.secondary : base.secondary);
  root.style.setProperty('--tertiary', HEX.test(t.tertiary) ? t.tertiary : base.tertiary);
  root.style.setProperty('--on-primary', textOn(primary));
  root.style.setProperty('--primary-text', readableOnLight(primary));
}

export function applyFavicon(url: string | null | undefined) {
  if (!url) return;
  const link = document.getElementById('app-favicon') as HTMLLinkElement | null;
  if (link) link.href = url;
}
