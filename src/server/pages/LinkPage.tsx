/**
 * The small HTML pages behind the links in mail (newsletter confirm, unsubscribe and preferences, meeting cancel
 * and reschedule). They are answered by a
 * function, not pre-rendered, because a tampered or used link must get its own 4xx status. One inline
 * stylesheet allowed by its hash, no script, no third-party request, and no Referer: the URL holds a token.
 */
import { createHash } from 'node:crypto';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { intlLocale, localePath, type Lang } from '../../i18n/lang.ts';
import { site } from '../../site.config.ts';
import { mailCopy } from '../mail/copy.ts';

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
.alert{border-left:4px solid #b24a12;background:#fbf1ea;padding:.75rem 1rem}
fieldset{border:0;margin:0 0 1.25rem;padding:0}
legend{font-weight:600;color:#16466e;padding:0;margin:0 0 .5rem}
.hint{color:#4a5866;font-size:.875rem}
.days{border:1px solid #d9d4c7;padding:1rem;margin:0 0 1.25rem}
.day{margin:0 0 1rem}
.day legend{font-weight:600;color:#0e2230;font-size:.95rem}
.slots{display:flex;flex-wrap:wrap;gap:.5rem}
.slot{display:flex;align-items:center;gap:.4rem;border:1px solid #d9d4c7;border-radius:4px;padding:.4rem .6rem;cursor:pointer;min-height:44px}
.slot:has(input:checked){border-color:#16466e;background:#eef3f8}
.slot input{margin:0;width:1.1rem;height:1.1rem;accent-color:#16466e}
.slot small{display:block;color:#4a5866;font-size:.8rem}
.done{border-left:4px solid #16466e;background:#eef3f8;padding:.75rem 1rem}
.part{border-top:1px solid #d9d4c7;margin:1.5rem 0 0;padding:1.25rem 0 0}
h2{color:#16466e;font-size:1.2rem;line-height:1.3;margin:0 0 .5rem}
.checks{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.25rem 1rem}
.check{display:flex;align-items:center;gap:.5rem;min-height:44px;cursor:pointer}
.check input{margin:0;width:1.15rem;height:1.15rem;accent-color:#16466e;flex:none}
button.quiet{color:#16466e;background:#fff;border:2px solid #16466e}
button.quiet:hover{background:#eef3f8}
@media (max-width:40rem){main{margin:1.5rem 1rem;padding:1.5rem 1rem}}
`.trim();

const STYLE_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;

/** A choice of times, one radio button each, grouped by day (the reschedule page). */
export interface SlotChoice {
  legend: string;
  hint: string;
  /** Field name of the radio buttons. */
  name: string;
  days: { label: string; slots: { value: string; label: string; local?: string }[] }[];
}

export interface LinkPageContent {
  eyebrow: string;
  title: string;
  paragraphs: readonly string[];
  /** Said first, as an alert: why the last press did not go through. */
  alert?: string;
  /** A button that posts back to `action` (the same link): the only way a change is made. */
  form?: { action: string; button: string; choice?: SlotChoice };
  /** Anything more the page holds after its paragraphs (the preference page's forms). */
  body?: ReactNode;
  /** Where to go next: a path on this site (its English form; the page's language prefixes it) and its label. */
  next: { href: string; label: string };
  /** The reader's language (the link's `/de` prefix): the page's words and its links follow it. */
  lang?: Lang;
}

function Choice({ choice }: { choice: SlotChoice }) {
  return (
    <fieldset className="days" aria-describedby="choice-hint">
      <legend>{choice.legend}</legend>
      <p className="hint" id="choice-hint">
        {choice.hint}
      </p>
      {choice.days.map((day) => (
        <fieldset className="day" key={day.label}>
          <legend>{day.label}</legend>
          <div className="slots">
            {day.slots.map((slot) => (
              <label className="slot" key={slot.value}>
                <input type="radio" name={choice.name} value={slot.value} required />
                <span>
                  {slot.label}
                  {slot.local && <small>{slot.local}</small>}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ))}
    </fieldset>
  );
}

function LinkPage({ eyebrow, title, paragraphs, alert, form, body, next, lang = 'en' }: LinkPageContent) {
  return (
    <html lang={intlLocale[lang]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{`${title} | ${site.displayName}`}</title>
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <header>
          <a className="brand" href={localePath(lang, '/')}>
            {site.name.toUpperCase()}
            <span>{site.logoTag}</span>
          </a>
        </header>
        <main>
          <p className="eyebrow">{eyebrow}</p>
          <h1>{title}</h1>
          {alert && (
            <p className="alert" role="alert">
              {alert}
            </p>
          )}
          {paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
          {body}
          {form && (
            <form method="post" action={form.action}>
              {form.choice && <Choice choice={form.choice} />}
              <p>
                <button type="submit">{form.button}</button>
              </p>
            </form>
          )}
          <p>
            <a href={localePath(lang, next.href)}>{next.label}</a>
          </p>
        </main>
        <footer>
          <p>
            {site.legalName} · <a href={`mailto:${site.email}`}>{site.email}</a> ·{' '}
            <a href={localePath(lang, '/privacy-policy')}>{mailCopy(lang).pages.privacy}</a>
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
