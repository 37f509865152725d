/**
 * An unsaved newsletter draft kept in this tab's sessionStorage, so a session that ends (idle sign-out, an
 * expired token) does not lose the text: the admin offers it back after the next sign-in. sessionStorage,
 * not localStorage: the draft goes when the tab closes and is never left for the next person at a shared
 * computer.
 */
import type { CampaignInput } from '../../../../lib/campaign-schema.ts';

export const DRAFT_KEY = 'korvel:admin-campaign-draft';

export interface StoredDraft {
  /** The saved draft it edits, or null for an issue not yet saved. */
  id: number | null;
  content: CampaignInput;
}

function store(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined; // storage blocked by the browser's privacy settings
  }
}

/** Reads a stored value back; anything not shaped like a draft (or a draft with no text at all) is null. */
export function parseDraft(raw: string | null): StoredDraft | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredDraft> | null;
    const content = value?.content;
    const id = value?.id;
    if (!content || (id !== null && !Number.isInteger(id))) return null;
    const { subject, preheader, markdown, articles } = content;
    if (typeof subject !== 'string' || typeof markdown !== 'string') return null;
    if (preheader !== undefined && typeof preheader !== 'string') return null;
    if (articles !== undefined && !(Array.isArray(articles) && articles.every((a) => typeof a === 'string')))
      return null;
    if (!subject.trim() && !markdown.trim()) return null;
    return { id: id as number | null, content: { subject, preheader, markdown, articles } };
  } catch {
    return null;
  }
}

export const readDraft = (): StoredDraft | null => parseDraft(store()?.getItem(DRAFT_KEY) ?? null);

export function keepDraft(draft: StoredDraft): void {
  try {
    store()?.setItem(DRAFT_KEY, JSON.stringify(draft));
  } catch {
    // A full or blocked storage: the draft is only as safe as the open tab.
  }
}

export const forgetDraft = (): void => store()?.removeItem(DRAFT_KEY);
