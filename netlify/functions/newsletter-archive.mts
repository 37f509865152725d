/**
 * GET /newsletter, /de/newsletter → the public archive of sent issues in that language, newest first: the
 * site's built page with the list in place of its empty state (src/server/newsletter-archive.tsx).
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { archiveHandler } from '../../src/server/newsletter-archive.tsx';

export default route('newsletter-archive', { GET: archiveHandler });

export const config: Config = { path: ['/newsletter', '/de/newsletter'] };
