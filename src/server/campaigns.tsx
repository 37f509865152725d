/**
 * Newsletter issues from the admin: GET/POST /api/campaigns, GET/PATCH/DELETE /api/campaigns/{id},
 * POST /api/campaigns/{id}/test|send|cancel|duplicate, PUT /api/campaigns/{id}/archive,
 * POST /api/campaign-preview, and the signed web version at GET /newsletter/issue/{id}?sig=…
 */
import { render } from '@react-email/render';
import {
  campaignPatchSchema,
  campaignSchema,
  type CampaignInput,
  type CampaignPatch,
} from '../lib/campaign-schema.ts';
import { validate } from '../lib/schemas.ts';
import { localePath, type Lang } from '../i18n/lang.ts';
import { requireAdmin, ROLES_FOR } from './auth.ts';
import { logScheduleChange, requestedSchedule } from './campaign-schedule.ts';
import { recordActivity } from './repositories/activity.ts';
import { database } from './config.ts';
import { HttpError, json, noContent, readJson, readText, type Handler } from './http.ts';
import { articlesFor, CampaignMail } from './mail/campaign.tsx';
import { fill, mailCopy } from './mail/copy.ts';
import { sendSoon, workSoon } from './mail/kick.ts';
import { deliverability } from './mail/suppression.ts';
import { campaignViewUrl, verifyCampaignView } from './mail/links.ts';
import { mailSettings } from './mail/settings.ts';
import { htmlPageResponse, linkPageResponse } from './pages/LinkPage.tsx';
import { onlyParams, paging, rowId } from './query.ts';
import {
  audienceCount,
  campaignFailures,
  cancelSending,
  createCampaign,
  deleteDraft,
  duplicateCampaign,
  findCampaign,
  listCampaigns,
  NoRecipients,
  setInArchive,
  settleCampaigns,
  startSending,
  updateDraft,
  type CampaignContent,
  type CampaignStatus,
  type NotDraft,
} from './repositories/campaigns.ts';
import { enqueueMail } from './repositories/outbox.ts';

/** 50,000 characters of Markdown at up to 4 bytes each, plus the other fields. */
export const CAMPAIGN_BODY_LIMIT = 256 * 1024;

const invalid = (fields: Record<string, string>) =>
  new HttpError(400, 'validation_failed', 'Check the highlighted fields and send the campaign again.', {
    fields,
  });

const notFound = (id: number) => new HttpError(404, 'not_found', `There is no campaign with id ${id}.`);

const STATE_MESSAGES: Record<CampaignStatus, string> = {
  draft: 'This campaign is still a draft.',
  sending: 'This campaign is being sent; only a draft can be changed, deleted or sent.',
  sent: 'This campaign has been sent; only a draft can be changed, deleted or sent.',
  cancelled: 'This campaign was cancelled while sending; only a draft can be changed, deleted or sent.',
};
const wrongState = ({ notDraft }: NotDraft) => new HttpError(409, 'campaign_state', STATE_MESSAGES[notDraft]);

/** Every named article must be one the site publishes (the build-time index). */
function checkArticles(ids: readonly string[] | undefined): void {
  if (!ids) return;
  const known = new Set(articlesFor(ids).map((article) => article.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw invalid({ articles: `There is no published article ${unknown}.` });
}

async function campaignInput(req: Request): Promise<CampaignInput> {
  const parsed = validate(campaignSchema, await readJson(req, CAMPAIGN_BODY_LIMIT));
  if (!parsed.ok) throw invalid(parsed.fields);
  checkArticles(parsed.data.articles);
  return parsed.data;
}

/** What an issue says and in which language, with the defaults of the optional fields. */
const contentOf = (input: CampaignInput): CampaignContent => ({
  subject: input.subject,
  preheader: input.preheader ?? '',
  markdown: input.markdown,
  articles: input.articles ?? [],
  lang: input.lang ?? 'en',
  topics: input.topics ?? [],
});

/** "English" or "German": the admin is English, and names an issue's language so. */
const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', de: 'German' };

export const listCampaignsHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const params = new URL(req.url).searchParams;
  onlyParams(params, ['page', 'pageSize']);
  await settleCampaigns(db);
  const { rows, total } = await listCampaigns(db, paging(params));
  return json(200, rows, { 'x-total-count': String(total) });
};

export const createCampaignHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const input = await campaignInput(req);
  const campaign = await createCampaign(db, contentOf(input), admin.id, {
    scheduledAt: requestedSchedule(input.scheduledAt),
  });
  await logScheduleChange(db, { actor: admin, ip: context.ip, id: campaign.id }, null, campaign.scheduledAt);
  return json(201, { id: campaign.id }, { location: `/api/campaigns/${campaign.id}` });
};

export const getCampaignHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  onlyParams(new URL(req.url).searchParams, []);
  await settleCampaigns(db);
  const campaign = await findCampaign(db, id);
  if (!campaign) throw notFound(id);
  return json(200, { ...campaign, failures: await campaignFailures(db, id) });
};

/** GET /api/campaigns/{id}/audience: how many subscribers a send would reach now (the send dialog shows it). */
export const campaignAudienceHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  onlyParams(new URL(req.url).searchParams, []);
  const count = await audienceCount(db, id);
  if (count === undefined) throw notFound(id);
  return json(200, { count });
};

export const updateCampaignHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  const parsed = validate(campaignPatchSchema, await readJson(req, CAMPAIGN_BODY_LIMIT));
  if (!parsed.ok) throw invalid(parsed.fields);
  const patch: CampaignPatch = parsed.data;
  checkArticles(patch.articles);
  const result = await updateDraft(db, id, { ...patch, scheduledAt: requestedSchedule(patch.scheduledAt) });
  if (!result) throw notFound(id);
  if ('notDraft' in result) throw wrongState(result);
  const { scheduledBefore, ...campaign } = result;
  await logScheduleChange(db, { actor: admin, ip: context.ip, id }, scheduledBefore, campaign.scheduledAt);
  return json(200, campaign);
};

/** POST /api/campaigns/{id}/duplicate: a new draft with the content of any issue, not scheduled. */
export const duplicateCampaignHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  await readText(req, 1024);
  const copy = await duplicateCampaign(db, id, admin.id);
  if (!copy) throw notFound(id);
  await recordActivity(db, {
    actor: admin,
    action: 'campaign.duplicate',
    target: `campaign ${copy.id} from campaign ${id}`,
    ip: context.ip,
  });
  return json(201, { id: copy.id }, { location: `/api/campaigns/${copy.id}` });
};

/** PUT /api/campaigns/{id}/archive `{"inArchive": boolean}`: lists or unlists the issue in the public archive. */
export const archiveCampaignHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  const body = await readJson(req, 1024);
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  const inArchive = (body as { inArchive?: unknown } | null)?.inArchive;
  if (keys.length !== 1 || typeof inArchive !== 'boolean')
    throw new HttpError(400, 'validation_failed', 'Send {"inArchive": true} or {"inArchive": false}.', {
      fields: { inArchive: 'Send true to list the issue in the archive, false to take it out.' },
    });
  const campaign = await setInArchive(db, id, inArchive);
  if (!campaign) throw notFound(id);
  await recordActivity(db, {
    actor: admin,
    action: 'campaign.archive',
    target: `campaign ${id} ${inArchive ? 'listed in' : 'taken out of'} the public archive`,
    ip: context.ip,
  });
  return json(200, { ...campaign, failures: await campaignFailures(db, id) });
};

export const deleteCampaignHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  const result = await deleteDraft(db, id);
  if (!result) throw notFound(id);
  if (result !== true) throw wrongState(result);
  return noContent();
};

/** POST /api/campaigns/{id}/test: one copy, marked as a test, to the signed-in admin. */
export const testCampaignHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  await readText(req, 1024);
  const campaign = await findCampaign(db, id);
  if (!campaign) throw notFound(id);
  const ids = await enqueueMail(db, [
    {
      key: `campaign-test:${id}:${admin.id}:${Date.now()}`,
      template: 'campaign-test',
      to: admin.email,
      campaignId: id,
    },
  ]);
  await recordActivity(db, {
    actor: admin,
    action: 'campaign.test',
    target: `campaign ${id}`,
    ip: context.ip,
  });
  await sendSoon(context, db, ids);
  return json(202, { to: admin.email });
};

/** `{"confirmComplaints": true}`, or no body: the owner's word that an issue goes out despite complaints. */
async function complaintConfirmation(req: Request): Promise<boolean> {
  const text = (await readText(req, 1024)).trim();
  if (!text) return false;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : undefined;
  const confirm = (body as { confirmComplaints?: unknown } | undefined)?.confirmComplaints;
  if (
    !keys ||
    keys.some((key) => key !== 'confirmComplaints') ||
    (confirm !== undefined && typeof confirm !== 'boolean')
  )
    throw new HttpError(400, 'validation_failed', 'Send no body, or {"confirmComplaints": true}.');
  return confirm === true;
}

/**
 * POST /api/campaigns/{id}/send: snapshots the confirmed subscribers into the outbox; once only. While the
 * last 30 days' complaints are above 0.3 %, only the owner may send, with `{"confirmComplaints": true}` (logged).
 */
export const sendCampaignHandler: Handler = async (req, context) => {
  const db = database();
  const admin = await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  const confirmed = await complaintConfirmation(req);
  const health = await deliverability(db);
  if (health.sendNeedsConfirmation && (!confirmed || admin.role !== 'owner')) {
    const rate = `${((health.complaintRate ?? 0) * 100).toFixed(2)} %`;
    // 409 for both: a 403 would read as "signed out of this role" to the admin island.
    throw new HttpError(
      409,
      admin.role === 'owner' ? 'complaints_need_confirmation' : 'complaints_need_owner',
      admin.role === 'owner'
        ? `Complaints over the last ${health.days} days are ${rate}, above 0.3 %: confirm this send with {"confirmComplaints": true}.`
        : `Complaints over the last ${health.days} days are ${rate}, above 0.3 %: only the owner can send this issue now.`,
    );
  }
  let result: Awaited<ReturnType<typeof startSending>>;
  try {
    result = await db.transaction((tx) => startSending(tx, id));
  } catch (error) {
    if (!(error instanceof NoRecipients)) throw error;
    throw new HttpError(
      409,
      'no_recipients',
      error.topics.length
        ? `No confirmed ${LANGUAGE_NAMES[error.lang]} subscriber follows the chosen topics (readers who paused the newsletter are left out).`
        : `There are no confirmed ${LANGUAGE_NAMES[error.lang]} subscribers to send to.`,
    );
  }
  if (!result) throw notFound(id);
  if ('notDraft' in result) throw wrongState(result);
  await recordActivity(db, {
    actor: admin,
    action: 'campaign.send',
    target: `campaign ${id}, ${result.recipients} ${result.recipients === 1 ? 'recipient' : 'recipients'}`,
    ip: context.ip,
  });
  if (health.sendNeedsConfirmation)
    await recordActivity(db, {
      actor: admin,
      action: 'campaign.send_over_complaints',
      target: `campaign ${id}, complaints ${((health.complaintRate ?? 0) * 100).toFixed(2)} % over ${health.days} days`,
      ip: context.ip,
    });
  // The first batch leaves now; the scheduled worker sends the rest at MAIL_RATE_PER_MINUTE.
  await workSoon(context, db);
  return json(202, { id, status: 'sending', recipients: result.recipients });
};

/** POST /api/campaigns/{id}/cancel: the copies that have not gone out stay unsent. */
export const cancelCampaignHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const id = rowId(context.params.id);
  await readText(req, 1024);
  const result = await db.transaction((tx) => cancelSending(tx, id));
  if (!result) throw notFound(id);
  if ('notDraft' in result) {
    throw new HttpError(409, 'campaign_state', 'Only a campaign that is being sent can be cancelled.');
  }
  return json(200, { ...(await findCampaign(db, id))!, failures: await campaignFailures(db, id) });
};

/** What the preview shows where each recipient's own unsubscribe and preference addresses will stand. */
const previewLinkUrl = (siteUrl: string, lang: Lang, page: 'unsubscribe' | 'preferences') =>
  `${siteUrl}${localePath(lang, `/newsletter/${page}`)}?token=…`;

/** POST /api/campaign-preview: the mail exactly as a subscriber will get it, from the editor's fields. */
export const previewCampaignHandler: Handler = async (req, context) => {
  const db = database();
  await requireAdmin(req, db, ROLES_FOR.campaigns, context);
  const content = contentOf(await campaignInput(req));
  const { siteUrl } = mailSettings();
  const element = (
    <CampaignMail
      siteUrl={siteUrl}
      {...content}
      articles={articlesFor(content.articles)}
      viewUrl={`${siteUrl}/newsletter/issue/…`}
      unsubscribeUrl={previewLinkUrl(siteUrl, content.lang, 'unsubscribe')}
      preferencesUrl={previewLinkUrl(siteUrl, content.lang, 'preferences')}
    />
  );
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return json(200, { subject: content.subject, html, text });
};

/** The web version's own policy: the mail's inline styles, nothing that runs, nothing from elsewhere. */
const WEB_VERSION_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * GET /newsletter/issue/{id}?sig=…: the issue as a page, without sign-in and without anyone's details; the
 * archive links the same address. Indexable only while the issue is sent and listed in the archive.
 */
export const viewCampaignHandler: Handler = async (req, context) => {
  const params = new URL(req.url).searchParams;
  const raw = context.params.id ?? '';
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : 0;
  const signature = params.get('sig') ?? '';
  // Nothing names the language of an issue that cannot be found: that page is English.
  const copy = mailCopy('en');
  const missing = () =>
    linkPageResponse(404, {
      eyebrow: copy.pages.eyebrow,
      title: copy.pages.issue_missing.title,
      paragraphs: copy.pages.issue_missing.text,
      next: { href: '/blog', label: copy.campaign.read },
    });
  if (!id || id > 2_147_483_647 || [...params.keys()].join() !== 'sig' || !verifyCampaignView(id, signature))
    return missing();
  const campaign = await findCampaign(database(), id);
  if (!campaign) return missing();
  const { siteUrl } = mailSettings();
  const words = mailCopy(campaign.lang).campaign;
  const html = await render(
    <CampaignMail
      siteUrl={siteUrl}
      lang={campaign.lang}
      subject={campaign.subject}
      preheader=""
      markdown={campaign.markdown}
      articles={articlesFor(campaign.articles)}
      footerNote={words.web_note}
      webTitle={fill(words.web_title, { subject: campaign.subject })}
    />,
  );
  const response = htmlPageResponse(200, html, WEB_VERSION_CSP);
  // A sent issue in the public archive is a page search engines may index, at this one address.
  if (campaign.status === 'sent' && campaign.inArchive) {
    response.headers.delete('x-robots-tag');
    response.headers.set('cache-control', 'public, max-age=300');
    response.headers.set('link', `<${campaignViewUrl(siteUrl, id)}>; rel="canonical"`);
  }
  return response;
};
