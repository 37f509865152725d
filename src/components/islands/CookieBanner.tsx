import { useEffect, useState } from 'react';
import { CONSENT_KEY, CONSENT_VALUE, consentStored } from '../../lib/consent.ts';
import IslandErrorBoundary from './IslandErrorBoundary.tsx';
import './CookieBanner.css';

export const COOKIE_BANNER_DELAY_MS = 4000;

export interface CookieBannerCopy {
  label: string;
  text: string;
  link: string;
  /** The privacy policy in the page's language. */
  href: string;
  allow: string;
  decline: string;
  errorHeading: string;
}

interface Props {
  copy: CookieBannerCopy;
  /** @default 4000 */
  delayMs?: number;
}

function Banner({ copy, delayMs = COOKIE_BANNER_DELAY_MS }: Props) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (consentStored()) return;
    const timer = window.setTimeout(() => setOpen(true), delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs]);

  if (!open) return null;

  const allow = () => {
    try {
      window.localStorage.setItem(CONSENT_KEY, CONSENT_VALUE);
    } catch {
      // Storage blocked: hide for this page view; the banner asks again next time.
    }
    // Measurement starts with this page view (next pages load the beacon themselves; src/scripts/measure.ts).
    void import('../../scripts/beacon.ts');
    setOpen(false);
  };

  return (
    <section className="cookie-banner" aria-label={copy.label} data-cookie-banner>
      <p>
        {copy.text} <a href={copy.href}>{copy.link}</a>.
      </p>
      <div className="cookie-banner__actions">
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
          {copy.decline}
        </button>
        <button type="button" className="button button--primary" onClick={allow}>
          {copy.allow}
        </button>
      </div>
    </section>
  );
}

export default function CookieBanner(props: Props) {
  return (
    <IslandErrorBoundary heading={props.copy.errorHeading}>
      <Banner {...props} />
    </IslandErrorBoundary>
  );
}
