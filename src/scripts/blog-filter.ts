/**
 * The blog filter with JavaScript: a filter link shows its articles in place instead of loading its page, and
 * the address, heading, title and count follow, so Back, reload and a shared link all land on the same view.
 * Without JavaScript the links load the pre-rendered filter pages (src/pages/blog/[kind]/[id].astro).
 */
export function initBlogFilter(): void {
  const nav = document.querySelector<HTMLElement>('[data-blog-filter]');
  if (!nav) return;
  const links = Array.from(nav.querySelectorAll<HTMLAnchorElement>('a[data-status]'));
  const cards = Array.from(document.querySelectorAll<HTMLElement>('[data-filter-item]'));
  const heading = document.querySelector<HTMLElement>('[data-filter-heading]');
  const status = document.querySelector<HTMLElement>('[data-filter-status]');

  const show = (chosen: HTMLAnchorElement) => {
    const { kind, id } = chosen.dataset;
    for (const card of cards) {
      const values = (kind === 'division' ? card.dataset.divisions : card.dataset.tags)?.split(' ') ?? [];
      card.hidden = Boolean(kind && id && !values.includes(id));
    }
    for (const link of links) {
      if (link === chosen) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (heading) heading.textContent = chosen.dataset.heading ?? '';
    if (status) status.textContent = chosen.dataset.status ?? '';
    document.title = chosen.dataset.title ?? document.title;
  };

  nav.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-status]');
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (link.pathname !== location.pathname) history.pushState(null, '', link.href);
    show(link);
  });
  window.addEventListener('popstate', () => {
    const link = links.find((item) => item.pathname === location.pathname);
    if (link) show(link);
  });
}
