/**
 * The small HTML pages behind the links in newsletter mail (confirm, unsubscribe). They are answered by a
 * function, not pre-rendered, because a tampered or used link must get its own 4xx status. One inline
 * stylesheet allowed by its hash, no script, no third-party request, and no Referer: the URL holds a token.
 */
import { createHash } from 'node:crypto';
import { renderToStaticMarkup } from 'react-dom/server';
import { site } from '../../site.config.ts';
import { copy } from '../mail/copy.ts';

const CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f7f5f0;color:#0e2230;font:1rem/1.6 'IBM Plex Sans',system-ui,-apple-system,'Segoe UI',sans-serif}
header{background:#fff;border-bottom:3px solid #b24a12;padding:1rem 1.5rem}
.brand{color:#16466e;font-weight:700;letter-spacing:.18em;text-decoration:none;font-size:1.25rem}
.brand span{display:block;font-size:.7rem;letter-spacing:.12em;color:#4a5866;font-weight:500}
main{max-width:38rem;margin:3rem auto;padding:2rem 1.5rem;background:#fff;border:1px solid #d9d4c7}
.eyebrow{margin:0;color:#b24a12;font-size:.8rem;font-weight:600;letter-spacing:.08em;text-transform:uppercase}
h1{color:#16466e;font-size:1.75rem;line-height:1.25;margin:.25rem 0 1rem}
p{margin:0 0 1rem}
button{font:inherit;font-weight:600;color:#fff;background:#b24a12;border:0;border-radius:4px;padding:.75rem 1.25rem;cursor:pointer}
button:hover{background:#8f3b0e}
a{color:#16466e}
:focus-visible{outline:3px solid #16466e;outline-offset:3px}
footer{max-width:38rem;margin:0 auto 3rem;padding:0 1.5rem;color:#4a5866;font-size:.875rem}
@media (max-width:40rem){main{margin:1.5rem 1rem;padding:1.5rem 1rem}}
`.trim();

const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

export interface LinkPageContent {
  eyebrow: string;
  title: string;
  paragraphs: readonly string[];
  /** A button that posts back to `action` (the same link): the only way a change is made. */
  form?: { action: string; button: string };
  /** Where to go next: a path on this site and its label. */
  next: { href: string; label: string };
}

function LinkPage({ eyebrow, title, paragraphs, form, next }: LinkPageContent) {
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} | ${site.displayName}`}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <header>
          <a className="brand" href="/">
            {site.name.toUpperCase()}
            <span>{site.logoTag}</span>
          </a>
        </header>
        <main>
          <p className="eyebrow">{eyebrow}</p>
          <h1>{title}</h1>
          {paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
          {form && (
            <form method="post" action={form.action}>
              <p>
                <button type="submit">{form.button}</button>
              </p>
            </form>
          )}
          <p>
            <a href={next.href}>{next.label}</a>
          </p>
        </main>
        <footer>
          <p>
            {site.legalName} · <a href={`mailto:${site.email}`}>{site.email}</a> ·{' '}
            <a href="/privacy-policy">{copy.pages.privacy}</a>
          </p>
        </footer>
      </body>
    </html>
  );
}

/**
 * A page a function answers with: never cached or indexed, no Referer (its URL may hold a token), and its own
 * Content-Security-Policy.
 */
export function htmlPageResponse(status: number, html: string, csp: string): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-robots-tag': 'noindex, nofollow',
      'referrer-policy': 'no-referrer',
      'content-security-policy': csp,
    },
  });
}

/** The page as a complete response with its own strict headers. */
export function linkPageResponse(status: number, content: LinkPageContent): Response {
  return htmlPageResponse(
    status,
    `<!doctype html>${renderToStaticMarkup(<LinkPage {...content} />)}`,
    `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  );
}
