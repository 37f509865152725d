// The loader must decide before first paint, so boot.js is inlined in <head> (BaseLayout imports it raw);
// CSP admits it by this hash of the same file.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const bootScript = readFileSync(new URL('./boot.js', import.meta.url), 'utf8');
/** @type {`sha256-${string}`} */
export const bootScriptHash = `sha256-${createHash('sha256').update(bootScript).digest('base64')}`;
