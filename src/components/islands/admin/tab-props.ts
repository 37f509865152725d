/**
 * What the panel hands every tab; each tab picks its own copy. A module of its own, so that a tab never
 * imports the panel it sits in for a type.
 */
import type { Account } from './account-api.ts';
import type { ArticleOption } from './campaigns/types.ts';
import type { PanelCopy } from './copy.ts';
import type { ToastTone } from './Toasts.tsx';

export interface TabProps {
  copy: PanelCopy;
  /** The articles and news a newsletter issue can show as cards. */
  articles: readonly ArticleOption[];
  token: string;
  account: Account;
  notify: (text: string, tone?: ToastTone) => void;
  onUnauthorized: () => void;
  /** Set when the panel asks the newsletter tab to open the draft an ended session left behind. */
  resumeDraft: boolean;
}
