/**
 * The header's language picker: a native modal dialog. The close button, a click on the overlay and
 * Escape all run the same close action. Each live language is a link to this page in that language
 * (LanguagePicker.astro); choosing one stores it (`lng`, SPEC) and opens the link; the coming-soon entries
 * do nothing. Loaded on first use (shell.ts).
 */
import { chooseLanguage, toLanguageCode } from '../stores/language.ts';

class LanguagePicker extends HTMLElement {
  #dialog = this.querySelector<HTMLDialogElement>('[data-language-dialog]')!;

  connectedCallback() {
    this.querySelector('[data-language-open]')?.addEventListener('click', () => this.#dialog.showModal());
    this.querySelector('[data-language-close]')?.addEventListener('click', () => this.close());
    for (const option of this.querySelectorAll<HTMLAnchorElement>('a[data-language-choose]')) {
      option.addEventListener('click', (event) => {
        const mouse = event as MouseEvent;
        // A new tab or window opens the page without making it the interface language.
        if (mouse.button !== 0 || mouse.metaKey || mouse.ctrlKey || mouse.shiftKey || mouse.altKey) return;
        event.preventDefault();
        chooseLanguage(toLanguageCode(option.dataset.languageChoose), { open: option.href });
      });
    }
    this.#dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      this.close();
    });
    // A click whose target is the dialog itself landed on the overlay, outside the sheet.
    this.#dialog.addEventListener('click', (event) => {
      if (event.target === this.#dialog) this.close();
    });
  }

  close() {
    this.#dialog.close();
  }
}

export function initLanguagePicker(): void {
  if (!customElements.get('language-picker')) customElements.define('language-picker', LanguagePicker);
}
