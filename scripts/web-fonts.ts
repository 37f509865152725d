/** `npm run web-fonts` (also after `npm install`, before dev and build): cuts the site's fonts into src/generated/fonts. */
import { fileURLToPath } from 'node:url';
import { WEB_FONT_DIR, writeWebFonts } from './lib/web-fonts.ts';

const cut = await writeWebFonts(fileURLToPath(new URL('..', import.meta.url)));
console.log(`${WEB_FONT_DIR}: ${cut ? `${cut} fonts cut` : 'current'}`);
