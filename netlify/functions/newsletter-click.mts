/**
 * GET /newsletter/click/{id}?url=…&sig=… → 302 to the link's target, after counting one click for the issue
 * and link (no reader is identified). A changed target or issue → 400 page.
 */
import type { Config } from '@netlify/functions';
import { route } from '../../src/server/http.ts';
import { clickHandler } from '../../src/server/insight/handlers.ts';

export default route('newsletter-click', { GET: clickHandler });

export const config: Config = { path: '/newsletter/click/:id' };
