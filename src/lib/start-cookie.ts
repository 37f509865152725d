/** SPEC §7: on start the site sets a sample cookie (SameSite None, Secure, path /, one hour). */
export const startCookie = { name: 'korvel_start', value: 'sample', maxAgeSeconds: 3600 } as const;

/** The `document.cookie` assignment that sets the start cookie. */
export function startCookieString(): string {
  const { name, value, maxAgeSeconds } = startCookie;
  return `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=None; Secure`;
}
