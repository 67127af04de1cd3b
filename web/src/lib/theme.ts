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

/** Applies `theme`; `null` goes back to the site's own colours. */
export function applyTheme(theme: Partial<Theme> | null | undefined, root: HTMLElement = document.documentElement) {
  const base = siteTheme(root);
  const t = { ...base, ...(theme ?? {}) };
  root.style.setProperty('--primary', HEX.test(t.primary) ? t.primary : base.primary);
  root.style.setProperty('--secondary', HEX.test(t.secondary) ? t.secondary : base.secondary);
  root.style.setProperty('--tertiary', HEX.test(t.tertiary) ? t.tertiary : base.tertiary);
}

export function applyFavicon(url: string | null | undefined) {
  if (!url) return;
  const link = document.getElementById('app-favicon') as HTMLLinkElement | null;
  if (link) link.href = url;
}
