/**
 * The newsletter form once a visitor reaches for it (shell.ts): checks the fields with the function's own
 * schema, posts JSON, and shows the one neutral reply in place. Without this script the form posts as plain
 * HTML and the function answers with a 303 back to the page (see NewsletterBlock.astro).
 */
import { documentLang, newsletterSignupSchema, validate, type FormWords } from '../lib/schemas.ts';

function showError(form: HTMLFormElement, name: string, text: string | undefined) {
  const field = form.elements.namedItem(name) as HTMLInputElement | null;
  const error = form.querySelector<HTMLElement>(`[data-error-for="${name}"]`);
  if (!field || !error) return;
  error.textContent = text ?? '';
  error.hidden = !text;
  field.closest('.form-field')?.classList.toggle('form-field--invalid', Boolean(text));
  if (text) {
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', error.id);
  } else {
    field.removeAttribute('aria-invalid');
    field.removeAttribute('aria-describedby');
  }
}

export function enhance(form: HTMLFormElement): void {
  if (form.dataset.enhanced) return;
  form.dataset.enhanced = 'true';
  form.noValidate = true;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const general = form.querySelector<HTMLElement>('[data-general]')!;
  const done = form.querySelector<HTMLElement>('[data-done]')!;
  let sending = false;

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sending) return;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
    const consent = (form.elements.namedItem('consent') as HTMLInputElement).checked;
    // The ticked topic boxes (`topic-<id>`); none ticked is sent as none, which the function reads as all.
    const topics = [...form.querySelectorAll<HTMLInputElement>('input[name^="topic-"]:checked')].map((box) =>
      box.name.slice('topic-'.length),
    );
    const body = {
      email: value('email'),
      consent,
      source: value('source'),
      lang: documentLang(),
      ...(topics.length && { topics }),
      ...(value('website') && { website: value('website') }),
    };
    // The words of the page's language, written into the form by NewsletterBlock.astro.
    const words = form.dataset.words ? (JSON.parse(form.dataset.words) as FormWords) : undefined;
    const checked = validate(newsletterSignupSchema, body, words);
    const fields = checked.ok ? {} : checked.fields;
    for (const name of ['email', 'consent']) showError(form, name, fields[name]);
    general.textContent = '';
    if (!checked.ok) {
      (form.elements.namedItem(Object.keys(fields)[0] ?? 'email') as HTMLElement | null)?.focus();
      return;
    }

    sending = true;
    button.disabled = true;
    button.textContent = button.dataset.sending ?? button.textContent;
    try {
      const response = await fetch('/api/newsletter', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const reply = (await response.json().catch(() => undefined)) as
        { message?: string; error?: { message?: string; fields?: Record<string, string> } } | undefined;
      if (response.ok) {
        done.textContent = reply?.message ?? '';
        done.hidden = false;
        form.querySelector('[data-fields]')?.remove();
        done.focus();
        return;
      }
      if (reply?.error?.fields)
        for (const [name, text] of Object.entries(reply.error.fields)) showError(form, name, text);
      else
        general.textContent =
          response.status >= 500 ? (form.dataset.server ?? '') : (reply?.error?.message ?? '');
    } catch {
      general.textContent = form.dataset.network ?? '';
    } finally {
      sending = false;
      button.disabled = false;
      button.textContent = button.dataset.label ?? button.textContent;
    }
  });
}
