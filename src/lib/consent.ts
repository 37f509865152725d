/** SPEC §3: cookie consent is the local-storage entry `cookies` with the value `true`; declining stores nothing. */
export const CONSENT_KEY = 'cookies';
export const CONSENT_VALUE = 'true';

/** Whether this browser holds a consent answer; false where storage is blocked. */
export function consentStored(): boolean {
  try {
    return window.localStorage.getItem(CONSENT_KEY) !== null;
  } catch {
    return false;
  }
}
