/**
 * The header's language picker: a native modal dialog. The close button, a click on the overlay and
 * Escape all run the same close action; English applies the language, the coming-soon entries do nothing.
 * Loaded on first use (shell.ts); the button's label shows the stored language before that (shell.ts).
 */
import { chooseLanguage } from '../stores/language.ts';

class LanguagePicker extends HTMLElement {
  #dialog = this.querySelector<HTMLDialogElement>('[data-language-dialog]')!;

  connectedCallback() {
    this.querySelector('[data-language-open]')?.addEventListener('click', () => this.#dialog.showModal());
    this.querySelector('[data-language-close]')?.addEventListener('click', () => this.close());
    this.querySelector('[data-language-choose="en"]')?.addEventListener('click', () => chooseLanguage('en'));
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
