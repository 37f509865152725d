/**
 * `<link-password-form>` (src/components/admin/LinkPasswordForm.astro): the page a mailed reset or invitation
 * link opens. The link carries its token in the fragment (`#token=…`), which reaches neither a server log nor a
 * Referer; it is read once and wiped from the address bar and history as the page opens. An invitation then
 * asks whom it is for. The submit button stays disabled until this has run, where a press could not be handled.
 */
import { ADMIN_ACCOUNT, ADMIN_LOGIN, storeToken } from '../lib/admin-token.ts';
import { isApiError } from '../components/islands/admin/api.ts';
import {
  acceptInvitation,
  confirmPasswordReset,
  inspectInvitation,
  linkToken,
  type Role,
} from '../components/islands/admin/auth-api.ts';
import type { PasswordCopy, RolesCopy } from '../components/islands/admin/copy.ts';
import {
  passwordMessage,
  passwordProblem,
  type PasswordProblem,
} from '../components/islands/admin/password-check.ts';

/** The words the script shows, drawn by the page into `data-copy`. */
export interface LinkFormCopy {
  submit: string;
  saving: string;
  missing: string;
  expired: string;
  error: string;
  password: Pick<PasswordCopy, PasswordProblem | 'rejected'>;
  /** Reset only: the new password is set, and the way back to sign in or to a new link. */
  done?: string;
  sign_in?: string;
  ask_again?: string;
  /** Invitation only: each role's name and what it may do. */
  roles?: RolesCopy;
}

type Outcome = 'missing' | 'expired' | 'error' | 'done';

class LinkPasswordForm extends HTMLElement {
  #copy = JSON.parse(this.dataset.copy ?? '{}') as LinkFormCopy;
  #form = this.querySelector<HTMLFormElement>('[data-form]')!;
  #button = this.#form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  #token: string | null = null;
  #busy = false;

  connectedCallback() {
    this.#token = linkToken(window.location.hash);
    if (this.#token) history.replaceState(null, '', window.location.pathname);
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#submit();
    });
    if (!this.#token) return this.#end('missing');
    if (this.dataset.link === 'invite') return void this.#inspect(this.#token);
    this.#show();
  }

  #show() {
    this.#form.hidden = false;
    this.#button.disabled = false;
  }

  /** Whom the invitation is for, then the form; or why it cannot be used. */
  async #inspect(token: string) {
    try {
      const { email, role } = await inspectInvitation(token);
      this.#fill('[data-email]', email);
      this.#fill('[data-role]', this.#roleText(role));
      this.querySelector<HTMLInputElement>('[data-username]')!.value = email;
      this.querySelector('[data-checking]')?.remove();
      this.#show();
    } catch (failure) {
      this.#end(isApiError(failure, 410) || isApiError(failure, 400) ? 'expired' : 'error');
    }
  }

  async #submit() {
    if (this.#busy || !this.#token) return;
    const form = new FormData(this.#form);
    const password = String(form.get('password') ?? '');
    const problem = passwordProblem(password, String(form.get('repeat') ?? ''));
    this.#alert(null);
    this.#problem(passwordMessage(this.#copy.password, problem));
    if (problem) return;
    this.#setBusy(true);
    try {
      if (this.dataset.link === 'invite') {
        const name = String(form.get('name') ?? '').trim();
        storeToken(await acceptInvitation(this.#token, password, name));
        // The account page enrols a second factor; the button stays busy while it opens.
        return window.location.assign(ADMIN_ACCOUNT);
      }
      await confirmPasswordReset(this.#token, password);
      this.#end('done');
    } catch (failure) {
      if (isApiError(failure, 410)) this.#end('expired');
      else if (isApiError(failure, 400, 'validation_failed') && 'password' in failure.fields)
        this.#problem(passwordMessage(this.#copy.password, null, failure.fields.password));
      // A reset link the server cannot read is as good as expired; an invitation's is told apart by 410.
      else if (this.dataset.link === 'reset' && isApiError(failure, 400)) this.#end('expired');
      else this.#alert(this.#copy.error);
    }
    this.#setBusy(false);
  }

  #roleText(role: Role): string {
    const roles = this.#copy.roles!;
    return `${roles[role]}: ${roles[`${role}_hint`]}`;
  }

  #fill(selector: string, text: string) {
    this.querySelector(selector)!.textContent = text;
  }

  #setBusy(busy: boolean) {
    this.#busy = busy;
    this.#form.setAttribute('aria-busy', String(busy));
    this.#button.setAttribute('aria-disabled', String(busy));
    this.#button.textContent = busy ? this.#copy.saving : this.#copy.submit;
  }

  /**
   * The message under the new password: the browser's check or the server's reason; none clears it. The field
   * is always described by the note too, which adds nothing to its description while empty.
   */
  #problem(message: string | null) {
    const note = this.#form.querySelector<HTMLElement>('[data-problem]')!;
    note.textContent = message ?? '';
    note.hidden = !message;
    for (const field of this.#form.querySelectorAll('input[type="password"]')) {
      if (message) field.setAttribute('aria-invalid', 'true');
      else field.removeAttribute('aria-invalid');
    }
  }

  /** The announced failure above the button (a network or server failure), or none. */
  #alert(message: string | null) {
    const region = this.#form.querySelector('[data-alert]')!;
    region.replaceChildren();
    if (!message) return;
    const text = document.createElement('p');
    text.className = 'admin-error';
    text.textContent = message;
    region.append(text);
  }

  /** The form gives way to the outcome, which takes the focus so that a screen reader reads it. */
  #end(outcome: Outcome) {
    const copy = this.#copy;
    this.querySelector('[data-checking]')?.remove();
    this.#form.hidden = true;
    const result = this.querySelector<HTMLElement>('[data-result]')!;
    const text = result.querySelector<HTMLElement>('[data-result-text]')!;
    text.textContent = outcome === 'done' ? copy.done! : copy[outcome];
    text.classList.toggle('admin-notice--warn', outcome !== 'done');
    const link = result.querySelector<HTMLAnchorElement>('[data-result-link]');
    if (link) {
      link.href = outcome === 'done' ? ADMIN_LOGIN : '/admin/forgot-password';
      link.textContent = outcome === 'done' ? copy.sign_in! : copy.ask_again!;
    }
    result.hidden = false;
    // A link opened without its token says so as the page opens; the focus stays where the visitor put it.
    if (outcome !== 'missing') text.focus();
  }
}

export function initLinkPasswordForm(): void {
  if (!customElements.get('link-password-form'))
    customElements.define('link-password-form', LinkPasswordForm);
}
