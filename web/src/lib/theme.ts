// A partner's branding, applied as CSS variables so every component picks it up.
export type Theme = { primary: string; secondary: string; tertiary: string };

export const DEFAULT_THEME: Theme = { primary: '#6091E2', secondary: '#9462E7', tertiary: '#00FFFB' };

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function applyTheme(theme: Partial<Theme> | null | undefined, root: HTMLElement = document.documentElement) {
  const t = { ...DEFAULT_THEME, ...(theme ?? {}) };
  root.style.setProperty('--primary', HEX.test(t.primary) ? t.primary : DEFAULT_THEME.primary);
  root.style.setProperty('--secondary', HEX.test(t.secondary) ? t.secondary : DEFAULT_THEME.secondary);
  root.style.setProperty('--tertiary', HEX.test(t.tertiary) ? t.tertiary : DEFAULT_THEME.tertiary);
}

export function applyFavicon(url: string | null | undefined) {
  if (!url) return;
  const link = document.getElementById('app-favicon') as HTMLLinkElement | null;
  if (link) link.href = url;
}
