// The loader must decide before first paint, so boot.js is inlined in <head>; CSP admits it by this hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const bootScript = readFileSync(new URL('./boot.js', import.meta.url), 'utf8');
export const bootScriptHash = `sha256-${createHash('sha256').update(bootScript).digest('base64')}`;
