/**
 * The /search page in any language (/search, /de/search): `?q=…&type=…&division=…` opens with that search
 * run, and each search rewrites the address to match, on the page's own path. Loaded only on the search
 * page (SearchPage.astro), after the page has rendered.
 */
import { SearchPanel } from './search-panel.ts';

export function runSearchPage(root: HTMLElement): SearchPanel {
  const panel = new SearchPanel(root);
  const params = new URLSearchParams(location.search);
  panel.state = {
    q: params.get('q') ?? '',
    type: params.get('type') ?? '',
    division: params.get('division') ?? '',
  };
  const path = location.pathname;
  panel.onSearch = (state) => {
    const query = new URLSearchParams(Object.entries(state).filter(([, value]) => value)).toString();
    history.replaceState(null, '', query ? `${path}?${query}` : path);
  };
  if (panel.state.q || panel.state.type || panel.state.division) void panel.search();
  else panel.input.focus();
  return panel;
}
