/**
 * Runs a SearchPanel (src/components/SearchPanel.astro) against the Pagefind index in /pagefind/. Loaded
 * only when search is opened (header dialog or the search page); Pagefind's own script and index load on
 * the first search, never with the page. Pagefind reads the page's `<html lang>` and loads that language's
 * index only; the panel's copy comes from the page's markup, already in its language.
 */
import { intlLocale, langOf } from '../i18n/lang.ts';

interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(
    query: string | null,
    options?: { filters?: Record<string, string> },
  ): Promise<{ results: Array<{ id: string; data(): Promise<PagefindResultData> }> } | null>;
}

/** Results drawn at once; the count announces them all. */
const SHOWN = 12;
/** Written by the build (astro.config.mjs), outside Vite's graph: a runtime URL, so no bundler follows it. */
const PAGEFIND_URL = new URL('/pagefind/pagefind.js', location.origin).href;

let pagefind: Promise<Pagefind> | undefined;
function loadPagefind(): Promise<Pagefind> {
  pagefind ??= (import(/* @vite-ignore */ PAGEFIND_URL) as Promise<Pagefind>).then(async (module) => {
    await module.options({ excerptLength: 28 });
    await module.init();
    return module;
  });
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
}

/** Result dates as the page's language writes them: „14. Mai 2024“, "14 May 2024". */
const dateFormat = () =>
  new Intl.DateTimeFormat(intlLocale[langOf(document.documentElement.lang)], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Pagefind's excerpt is HTML with `<mark>` around the hits; only text and those marks are kept. */
function excerptNodes(html: string): Node[] {
  const template = document.createElement('template');
  template.innerHTML = html;
  return [...template.content.childNodes].map((node) => {
    if (node.nodeName === 'MARK') {
      const mark = document.createElement('mark');
      mark.textContent = node.textContent;
      return mark;
    }
    return document.createTextNode(node.textContent ?? '');
  });
}

export interface SearchState {
  q: string;
  type: string;
  division: string;
}

export class SearchPanel {
  readonly root: HTMLElement;
  readonly input: HTMLInputElement;
  #status: HTMLElement;
  #results: HTMLOListElement;
  #more: HTMLElement;
  #filters: HTMLSelectElement[];
  #labels: { type: Record<string, string>; division: Record<string, string> };
  #dates = dateFormat();
  #run = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Called after each search with what was searched, e.g. to keep the address bar in step. */
  onSearch?: (state: SearchState) => void;

  constructor(root: HTMLElement) {
    this.root = root;
    this.input = root.querySelector<HTMLInputElement>('[data-search-input]')!;
    this.#status = root.querySelector<HTMLElement>('[data-search-status]')!;
    this.#results = root.querySelector<HTMLOListElement>('[data-search-results]')!;
    this.#more = root.querySelector<HTMLElement>('[data-search-more]')!;
    this.#filters = [...root.querySelectorAll<HTMLSelectElement>('[data-search-filter]')];
    this.#labels = {
      type: JSON.parse(root.dataset.typeLabels ?? '{}'),
      division: JSON.parse(root.dataset.divisionLabels ?? '{}'),
    };
    this.input.addEventListener('input', () => this.#schedule());
    for (const select of this.#filters) select.addEventListener('change', () => void this.search());
    root.querySelector('[data-search-form]')?.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.search();
    });
  }

  get state(): SearchState {
    const value = (name: string) => this.#filters.find((s) => s.dataset.searchFilter === name)?.value ?? '';
    return { q: this.input.value.trim(), type: value('type'), division: value('division') };
  }

  set state(state: Partial<SearchState>) {
    if (state.q !== undefined) this.input.value = state.q;
    for (const select of this.#filters) {
      const value = state[select.dataset.searchFilter as 'type' | 'division'];
      if (value !== undefined && [...select.options].some((o) => o.value === value)) select.value = value;
    }
  }

  #schedule() {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.search(), 220);
  }

  #message(key: string, values: Record<string, string | number> = {}) {
    const template = this.root.dataset[key] ?? '';
    return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
  }

  async search(): Promise<void> {
    clearTimeout(this.#timer);
    const run = ++this.#run;
    const state = this.state;
    const filters: Record<string, string> = {};
    if (state.type) filters.type = state.type;
    if (state.division) filters.division = state.division;
    if (!state.q && Object.keys(filters).length === 0) {
      this.#results.replaceChildren();
      this.#more.hidden = true;
      this.#status.textContent = '';
      this.onSearch?.(state);
      return;
    }
    this.root.setAttribute('aria-busy', 'true');
    try {
      const engine = await loadPagefind();
      const found = await engine.search(state.q || null, { filters });
      if (run !== this.#run || !found) return;
      const data = await Promise.all(found.results.slice(0, SHOWN).map((result) => result.data()));
      if (run !== this.#run) return;
      this.#results.replaceChildren(...data.map((item) => this.#item(item)));
      const count = found.results.length;
      const key = state.q
        ? count === 0
          ? 'statusNone'
          : count === 1
            ? 'statusOne'
            : 'statusOther'
        : count === 1
          ? 'statusFilteredOne'
          : 'statusFilteredOther';
      this.#status.textContent = this.#message(key, { count, query: state.q });
      // Counted only where the visitor allowed it: the beacon (src/scripts/beacon.ts) listens for this.
      if (state.q)
        document.dispatchEvent(
          new CustomEvent('korvel:search', { detail: { query: state.q, results: count } }),
        );
      this.#more.hidden = count <= SHOWN;
      this.#more.textContent = this.#message('more', { shown: SHOWN });
      this.onSearch?.(state);
    } catch {
      if (run === this.#run) this.#status.textContent = this.#message('statusError');
    } finally {
      if (run === this.#run) this.root.removeAttribute('aria-busy');
    }
  }

  #item(data: PagefindResultData): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'search-result';
    const type = data.filters.type?.[0];
    const facts = [
      type && this.#labels.type[type],
      ...(data.filters.division ?? []).slice(0, 2).map((d) => this.#labels.division[d]),
      data.meta.date && this.#dates.format(new Date(data.meta.date)),
    ].filter(Boolean);
    const heading = document.createElement(`h${this.root.dataset.resultHeading ?? '3'}`);
    heading.className = 'search-result__title';
    const link = document.createElement('a');
    // Pagefind names pages by their directory (`/blog/gmp/`); the site's addresses have no trailing slash.
    link.href = data.url.replace(/(.)\/$/, '$1');
    link.textContent = data.meta.title ?? data.url;
    heading.append(link);
    const meta = document.createElement('p');
    meta.className = 'search-result__meta';
    meta.textContent = facts.join(' · ');
    const excerpt = document.createElement('p');
    excerpt.className = 'search-result__excerpt';
    excerpt.append(...excerptNodes(data.excerpt));
    item.append(meta, heading, excerpt);
    return item;
  }
}
