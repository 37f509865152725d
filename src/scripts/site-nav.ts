/**
 * Header navigation: disclosure dropdowns (click, Enter/Space, arrows, Escape, outside click) and the
 * burger panel on narrow screens. Menus are plain lists of links, following the disclosure pattern.
 */
const focusableIn = (menu: Element) =>
  Array.from(menu.querySelectorAll<HTMLElement>(':scope > li > a, :scope > li > button'));

const menuOf = (toggle: HTMLElement) => document.getElementById(toggle.getAttribute('aria-controls') ?? '');

class SiteNav extends HTMLElement {
  #burger = this.querySelector<HTMLButtonElement>('[data-burger]');

  connectedCallback() {
    this.addEventListener('click', this.#onClick);
    this.addEventListener('keydown', this.#onKeydown);
    this.addEventListener('focusout', this.#onFocusOut);
    this.addEventListener('focusin', this.#onFocusIn);
    document.addEventListener('pointerdown', this.#onPointerDown);
  }

  disconnectedCallback() {
    document.removeEventListener('pointerdown', this.#onPointerDown);
  }

  #toggles(scope: ParentNode = this): HTMLButtonElement[] {
    return Array.from(scope.querySelectorAll<HTMLButtonElement>('[data-nav-toggle]'));
  }

  #setOpen(toggle: HTMLElement, open: boolean) {
    toggle.setAttribute('aria-expanded', String(open));
    if (!open) {
      const menu = menuOf(toggle);
      if (menu) this.#toggles(menu).forEach((inner) => this.#setOpen(inner, false));
    }
  }

  /** Opens one menu and closes its siblings at the same level. */
  #open(toggle: HTMLElement) {
    const list = toggle.closest('ul');
    this.#toggles()
      .filter((other) => other !== toggle && other.closest('ul') === list)
      .forEach((other) => this.#setOpen(other, false));
    this.#setOpen(toggle, true);
  }

  closeAll() {
    this.#toggles().forEach((toggle) => this.#setOpen(toggle, false));
  }

  #setBurger(open: boolean) {
    if (!this.#burger) return;
    this.#burger.setAttribute('aria-expanded', String(open));
    const label = this.#burger.querySelector<HTMLElement>('[data-burger-label]');
    if (label) label.textContent = (open ? label.dataset.close : label.dataset.open) ?? '';
    document.documentElement.classList.toggle('nav-open', open);
    if (!open) this.closeAll();
  }

  #onClick = (event: MouseEvent) => {
    const target = event.target as Element;
    const toggle = target.closest<HTMLElement>('[data-nav-toggle]');
    if (toggle) {
      if (toggle.getAttribute('aria-expanded') === 'true') this.#setOpen(toggle, false);
      else this.#open(toggle);
      return;
    }
    if (target.closest('[data-burger]')) {
      this.#setBurger(this.#burger?.getAttribute('aria-expanded') !== 'true');
    }
  };

  #onKeydown = (event: KeyboardEvent) => {
    const active = document.activeElement as HTMLElement | null;
    if (!active) return;
    const toggle = active.matches('[data-nav-toggle]') ? active : null;
    const menu = active.closest('.nav__menu');

    if (event.key === 'Escape') {
      const openToggle = menu
        ? (this.querySelector(`[aria-controls="${menu.id}"]`) as HTMLElement | null)
        : null;
      if (toggle?.getAttribute('aria-expanded') === 'true') {
        this.#setOpen(toggle, false);
      } else if (openToggle) {
        this.#setOpen(openToggle, false);
        openToggle.focus();
      } else if (this.#burger?.getAttribute('aria-expanded') === 'true') {
        this.#setBurger(false);
        this.#burger.focus();
      } else return;
      event.preventDefault();
      return;
    }

    if (toggle && !toggle.closest('.nav__menu') && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      this.#open(toggle);
      const items = focusableIn(menuOf(toggle)!);
      (event.key === 'ArrowDown' ? items[0] : items.at(-1))?.focus();
      event.preventDefault();
      return;
    }

    if (toggle && menu && event.key === 'ArrowRight') {
      this.#open(toggle);
      focusableIn(menuOf(toggle)!)[0]?.focus();
      event.preventDefault();
      return;
    }

    if (!menu) return;
    const items = focusableIn(menu);
    const index = items.indexOf(active);
    const parentToggle = this.querySelector<HTMLElement>(`[aria-controls="${menu.id}"]`);
    let next: HTMLElement | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = items[(index + 1) % items.length];
        break;
      case 'ArrowUp':
        next = items[(index - 1 + items.length) % items.length];
        break;
      case 'Home':
        next = items[0];
        break;
      case 'End':
        next = items.at(-1);
        break;
      case 'ArrowLeft':
        if (parentToggle?.closest('.nav__menu')) {
          this.#setOpen(parentToggle, false);
          next = parentToggle;
        }
        break;
      default:
        return;
    }
    if (next) {
      next.focus();
      event.preventDefault();
    }
  };

  #onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (next && !this.contains(next)) this.closeAll();
  };

  /** On the desktop bar, moving focus to another item closes the dropdowns that no longer hold it. */
  #onFocusIn = (event: FocusEvent) => {
    if (this.#burger && getComputedStyle(this.#burger).display !== 'none') return;
    for (const toggle of this.#toggles()) {
      if (
        toggle.getAttribute('aria-expanded') === 'true' &&
        !toggle.parentElement?.contains(event.target as Node)
      ) {
        this.#setOpen(toggle, false);
      }
    }
  };

  #onPointerDown = (event: PointerEvent) => {
    if (this.contains(event.target as Node)) return;
    this.closeAll();
    if (
      this.#burger?.getAttribute('aria-expanded') === 'true' &&
      !(event.target as Element).closest('.site-header')
    ) {
      this.#setBurger(false);
    }
  };
}

export function initSiteNav(): void {
  if (!customElements.get('site-nav')) customElements.define('site-nav', SiteNav);
}
