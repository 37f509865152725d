/**
 * The provider webhooks of `POST /api/mail/events/{provider}`: each module verifies a delivery exactly as its
 * provider documents and turns what it reports into {@link MailEvent}s. Nothing here touches the database.
 */
import { mailgunProvider } from './mailgun.ts';
import { postmarkProvider } from './postmark.ts';
import { createSesProvider, networkSnsHttp, type SnsHttp } from './ses.ts';
import { sendgridProvider } from './sendgrid.ts';
import type { WebhookProvider } from './common.ts';

export type { VerifiedDelivery, WebhookInput, WebhookProvider } from './common.ts';
export { WebhookRefusedError } from './common.ts';
export type { SnsHttp } from './ses.ts';

export const PROVIDERS = ['ses', 'postmark', 'mailgun', 'sendgrid'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

let snsHttp: SnsHttp = networkSnsHttp;
let ses = createSesProvider(snsHttp);

/** The verifier of `name`, or undefined for a provider we do not take events from. */
export function webhookProvider(name: string): WebhookProvider | undefined {
  switch (name) {
    case 'ses':
      return ses;
    case 'postmark':
      return postmarkProvider;
    case 'mailgun':
      return mailgunProvider;
    case 'sendgrid':
      return sendgridProvider;
    default:
      return undefined;
  }
}

/** How SNS certificates are fetched and subscriptions confirmed; tests hand in a fake network (and its cache). */
export function useSnsHttp(http: SnsHttp = networkSnsHttp): void {
  snsHttp = http;
  ses = createSesProvider(snsHttp);
}

/** The SNS network access in use (the endpoint confirms subscriptions through it). */
export const currentSnsHttp = (): SnsHttp => snsHttp;
