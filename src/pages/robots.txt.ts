import type { APIRoute } from 'astro';
import { site } from '../site.config.ts';

/** robots.txt from the site's own URL, so a domain change is one edit in site.config.ts. */
export const GET: APIRoute = () =>
  new Response(
    [
      'User-agent: *',
      'Disallow: /admin',
      `Sitemap: ${new URL('/sitemap-index.xml', site.url).href}`,
      '',
    ].join('\n'),
    { headers: { 'content-type': 'text/plain; charset=utf-8' } },
  );
