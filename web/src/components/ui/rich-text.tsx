// HTML written in a partner's rich-text editor (its sign-up terms), shown without ever handing
// it to innerHTML: the markup is parsed, and only an allow-list of formatting elements and
// http(s)/mailto links is rebuilt as React elements. Scripts, styles, event handlers and any
// other attribute are dropped; the text of unknown elements is kept.
import { createElement, type ReactNode } from 'react';

const ALLOWED = new Set(['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'a', 'span', 'div']);
const DROPPED = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'head', 'title']);
const SAFE_HREF = /^(https?:|mailto:)/i;

function convert(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const children = Array.from(el.childNodes).map((c, i) => convert(c, `${key}.${i}`));
  if (!ALLOWED.has(tag)) return children;
  if (tag === 'br') return createElement('br', { key });
  if (tag === 'a') {
    const href = el.getAttribute('href')?.trim() ?? '';
    return SAFE_HREF.test(href) ? createElement('a', { key, href, target: '_blank', rel: 'noreferrer' }, ...children) : children;
  }
  // Headings inside a document's body would break its outline: shown as strong paragraphs.
  if (/^h[1-4]$/.test(tag)) return createElement('p', { key }, createElement('strong', null, ...children));
  return createElement(tag, { key }, ...children);
}

/** The allowed part of `html` as React nodes. */
export function richText(html: string): ReactNode {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return Array.from(doc.body.childNodes).map((n, i) => convert(n, String(i)));
}

export function RichText({ html, className }: { html: string; className?: string }) {
  return <div className={className}>{richText(html)}</div>;
}
