// Which site this page is: the platform's own address, or a partner's site whose end users get
// the portal. The api names an active partner site in index.html (`<meta name="portal-site">`,
// api/src/routes/web.rs), so the choice is made once, before the first render, with no request.
// Vite's dev server serves index.html unmarked: there `*.localhost` counts as a partner site.

export function portalSubdomain(doc: Document = document, loc: Pick<Location, 'hostname'> = window.location): string | null {
  const marked = doc.querySelector('meta[name="portal-site"]')?.getAttribute('content')?.trim();
  if (marked) return marked;
  if (import.meta.env.DEV) {
    const m = /^([a-z0-9-]+)\.localhost$/i.exec(loc.hostname);
    if (m) return m[1].toLowerCase();
  }
  return null;
}
