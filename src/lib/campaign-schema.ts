/**
 * The newsletter issue's payloads, shared by the admin's editor and the campaign functions. A module of its own
 * so the public pages' shared form code (src/lib/schemas.ts) does not carry them.
 */
import * as z from 'zod/mini';
import { NEWSLETTER_TOPICS } from '../content/constants.ts';
import { languages } from '../i18n/lang.ts';

/** Limits of a newsletter issue; they match the `campaigns` columns. */
export const CAMPAIGN_LIMITS = { subject: 150, preheader: 200, markdown: 50_000, articles: 6 } as const;

/** One line of text: no line break or other control character (it becomes a header or a preview line). */
const oneLine = (missing: string, max: number, tooLong: string) =>
  z
    .pipe(
      z.string(missing),
      z.transform((value: string) => value.trim()),
    )
    .check(
      z.maxLength(max, tooLong),
      z.regex(/^\P{Cc}*$/u, 'Keep it to one line, without line breaks or control characters.'),
    );

const SCHEDULE_FORMAT =
  'Give the time as ISO 8601 with its offset, e.g. 2026-12-01T09:00:00+01:00, or null to unschedule.';

/**
 * Whether the written date and time exist: Date.parse rolls 30 February over to 2 March, so the calendar fields
 * as written must come back from the instant shifted by the written offset. An unreadable value is the format
 * check's to refuse.
 */
function onTheCalendar(value: string): boolean {
  const time = Date.parse(value);
  const written = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}).*?(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(value);
  if (Number.isNaN(time) || !written) return true;
  const [, year, month, day, hour, minute, sign, offsetHours, offsetMinutes] = written;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  const wall = new Date(time + offset * 60_000);
  return (
    wall.getUTCFullYear() === Number(year) &&
    wall.getUTCMonth() + 1 === Number(month) &&
    wall.getUTCDate() === Number(day) &&
    wall.getUTCHours() === Number(hour) &&
    wall.getUTCMinutes() === Number(minute)
  );
}

const campaignFields = {
  subject: oneLine(
    'Write a subject.',
    CAMPAIGN_LIMITS.subject,
    'The subject has at most 150 characters.',
  ).check(z.minLength(1, 'Write a subject.')),
  preheader: oneLine(
    'The preview line is text.',
    CAMPAIGN_LIMITS.preheader,
    'The preview line has at most 200 characters.',
  ),
  markdown: z
    .pipe(
      z.string('Write the text of the issue.'),
      z.transform((value: string) => value.replace(/\r\n?/g, '\n').trim()),
    )
    .check(
      z.minLength(1, 'Write the text of the issue.'),
      z.maxLength(CAMPAIGN_LIMITS.markdown, 'The text has at most 50,000 characters.'),
      z.regex(/^(?:[\t\n]|\P{Cc})*$/u, 'The text contains characters we cannot send.'),
    ),
  articles: z
    .array(
      z
        .string('Name each article as blog/<slug> or news/<slug>.')
        .check(
          z.regex(/^(?:blog|news)\/[a-z0-9-]{1,100}$/, 'Name each article as blog/<slug> or news/<slug>.'),
        ),
      'Send the articles as a list.',
    )
    .check(
      z.maxLength(CAMPAIGN_LIMITS.articles, 'Choose at most six articles.'),
      z.refine((ids: string[]) => new Set(ids).size === ids.length, 'Choose each article only once.'),
    ),
  /** The language: who receives it (the confirmed subscribers of that language) and its mail's frame. */
  lang: z.enum(languages, 'The language is "en" (English) or "de" (German).'),
  /**
   * When the draft starts sending by itself: an ISO 8601 date and time with its offset (`2026-12-01T09:00:00+01:00`
   * or `…Z`); null takes it off the schedule. Whether the moment is still ahead is the server's check.
   */
  scheduledAt: z.nullable(
    z.string(SCHEDULE_FORMAT).check(
      z.regex(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/,
        SCHEDULE_FORMAT,
      ),
      z.refine((value: string) => !Number.isNaN(Date.parse(value)), SCHEDULE_FORMAT),
      z.refine(onTheCalendar, 'Choose a date and time that exist, not 30 February or 24:00.'),
    ),
  ),
  /** Who among them: the readers who follow one of these topics; none for every reader of the language. */
  topics: z
    .array(
      z.enum(NEWSLETTER_TOPICS, `Name each topic as one of ${NEWSLETTER_TOPICS.join(', ')}.`),
      'Send the topics as a list.',
    )
    .check(z.refine((ids: string[]) => new Set(ids).size === ids.length, 'Choose each topic only once.')),
};

/** POST /api/campaigns: a new draft. */
export const campaignSchema = z.strictObject(
  {
    subject: campaignFields.subject,
    preheader: z.optional(campaignFields.preheader),
    markdown: campaignFields.markdown,
    articles: z.optional(campaignFields.articles),
    lang: z.optional(campaignFields.lang),
    scheduledAt: z.optional(campaignFields.scheduledAt),
    topics: z.optional(campaignFields.topics),
  },
  'Send a JSON object with subject, markdown and, if you like, preheader, articles, lang, topics and scheduledAt.',
);
export type CampaignInput = z.infer<typeof campaignSchema>;

/** PATCH /api/campaigns/{id}: any of the draft's fields. */
export const campaignPatchSchema = z
  .strictObject(
    {
      subject: z.optional(campaignFields.subject),
      preheader: z.optional(campaignFields.preheader),
      markdown: z.optional(campaignFields.markdown),
      articles: z.optional(campaignFields.articles),
      lang: z.optional(campaignFields.lang),
      scheduledAt: z.optional(campaignFields.scheduledAt),
      topics: z.optional(campaignFields.topics),
    },
    'Send a JSON object with the fields to change: subject, preheader, markdown, articles, lang, topics or scheduledAt.',
  )
  .check(
    z.refine(
      (patch) => Object.keys(patch).length > 0,
      'Send at least one of subject, preheader, markdown, articles, lang, topics or scheduledAt.',
    ),
  );
export type CampaignPatch = z.infer<typeof campaignPatchSchema>;
