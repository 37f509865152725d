/**
 * What the newsletter-issue components share: the tab's props, which it hands down to the issue view, the
 * editor and the delivery panel, and the article options of the picker. A module of its own, so that a child
 * never imports its parent for a type.
 */
import type { CampaignsCopy, PagerCopy, SuppressionsCopy } from '../copy.ts';
import type { ToastTone } from '../Toasts.tsx';

/** What the picker needs of an indexed article. */
export interface ArticleOption {
  id: string;
  title: string;
  date: string;
}

export interface CampaignsProps {
  token: string;
  copy: CampaignsCopy;
  pagerCopy: PagerCopy;
  pagerLabel: string;
  /** The published articles and news an issue can show as cards (the build-time index). */
  articles: readonly ArticleOption[];
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
  /** Open the draft an ended session left in this tab at once. */
  resumeDraft?: boolean;
  /** The words of the 30-day bounce and complaint figures shown above the list. */
  deliverabilityCopy?: SuppressionsCopy;
}
