/**
 * Filters the full reference list in place (progressive enhancement of ReferenceFilter.astro). Without this
 * script every option is a link to its pre-rendered filter page; with it, a click hides the cards the filter
 * drops, updates the counts, the links and the status line, and keeps the choice in the address as
 * `?division=…&service=…`, so reloading, Back and Forward show the same list.
 */
import { langOf, localePath } from '../i18n/lang.ts';
import { filterPath, matches, parseFilter, type ReferenceFilter } from '../lib/references.ts';

const root = document.querySelector<HTMLElement>('[data-reference-filter][data-enhance]');

function filterFrom(search: string): ReferenceFilter {
  const params = new URLSearchParams(search);
  const keys = [params.get('division'), params.get('service')].filter(Boolean).join('/');
  return parseFilter(keys) ?? {};
}

if (root) {
  const cards = [...document.querySelectorAll<HTMLElement>('[data-division][data-services]')].map((el) => ({
    el,
    division: el.dataset.division ?? '',
    services: (el.dataset.services ?? '').split(' '),
  }));
  const groups = [...document.querySelectorAll<HTMLElement>('[data-division-group]')];
  const options = [...root.querySelectorAll<HTMLAnchorElement>('a[data-filter-facet]')];
  const status = root.querySelector<HTMLElement>('[role="status"]');
  const clear = root.querySelector<HTMLAnchorElement>('[data-filter-clear]');
  let current: ReferenceFilter = {};

  const pick = (link: HTMLAnchorElement): ReferenceFilter => ({
    ...current,
    [link.dataset.filterFacet as keyof ReferenceFilter]: link.dataset.filterKey || undefined,
  });
  const count = (filter: ReferenceFilter) => cards.filter((card) => matches(card, filter)).length;

  const apply = (filter: ReferenceFilter) => {
    current = filter;
    for (const card of cards) card.el.hidden = !matches(card, filter);
    for (const group of groups) group.hidden = !group.querySelector('[data-division]:not([hidden])');
    for (const link of options) {
      const next = pick(link);
      const found = count(next);
      const facet = link.dataset.filterFacet as keyof ReferenceFilter;
      link.querySelector('[data-count]')!.textContent = String(found);
      if (found > 0) {
        link.href = localePath(langOf(document.documentElement.lang), filterPath(next));
        link.removeAttribute('aria-disabled');
      } else {
        link.removeAttribute('href');
        link.setAttribute('aria-disabled', 'true');
      }
      if ((filter[facet] ?? '') === (link.dataset.filterKey ?? '')) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
    const filtered = Boolean(filter.division || filter.service);
    if (status) {
      const shown = count(filter);
      const template = (shown === 1 ? status.dataset.one : status.dataset.other) ?? '';
      status.textContent = filtered ? template.replace('{{count}}', String(shown)) : '';
    }
    if (clear) clear.hidden = !filtered;
  };

  const addressOf = (filter: ReferenceFilter) => {
    const url = new URL(window.location.href);
    url.search = new URLSearchParams(
      Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1])),
    ).toString();
    return url;
  };

  root.addEventListener('click', (event) => {
    const mouse = event as MouseEvent;
    if (mouse.button !== 0 || mouse.metaKey || mouse.ctrlKey || mouse.shiftKey || mouse.altKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href]');
    if (!link || !root.contains(link)) return;
    const next = link.hasAttribute('data-filter-clear')
      ? {}
      : link.dataset.filterFacet
        ? pick(link)
        : undefined;
    if (!next) return;
    event.preventDefault();
    apply(next);
    history.pushState(null, '', addressOf(next));
    // The clear link hides itself; focus moves to the first option, "All divisions".
    if (link.hidden) options[0]?.focus();
  });
  window.addEventListener('popstate', () => apply(filterFrom(window.location.search)));
  if (window.location.search) apply(filterFrom(window.location.search));
}
