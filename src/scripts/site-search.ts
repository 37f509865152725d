/**
 * The header's search dialog, loaded when the visitor first opens it (SiteSearch.astro opens the native
 * modal `<dialog>` itself: focus stays inside, Escape and the close button's `method="dialog"` form close
 * it, and focus returns to the button). This adds closing on the overlay and runs the search panel, whose
 * first search loads Pagefind and its index.
 */
import { SearchPanel } from './search-panel.ts';

const attached = new WeakSet<HTMLDialogElement>();

export function attachSearchDialog(dialog: HTMLDialogElement): void {
  if (attached.has(dialog)) return;
  attached.add(dialog);
  // A click whose target is the dialog itself landed on the overlay, outside the sheet.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  const panel = new SearchPanel(dialog.querySelector<HTMLElement>('[data-search-panel]')!);
  const pageLink = dialog.querySelector<HTMLAnchorElement>('[data-search-page-link]');
  panel.onSearch = (state) => {
    if (pageLink)
      pageLink.search = new URLSearchParams(Object.entries(state).filter(([, v]) => v)).toString();
  };
  // Typed before this code arrived: search for it now.
  if (panel.state.q) void panel.search();
}
