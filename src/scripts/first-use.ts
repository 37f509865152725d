/**
 * Code that loads on first use instead of with the page. Pointing at, touching or focusing inside the
 * element starts the download; a click on one of its controls, or an arrow, Home, End or Escape key on one,
 * that arrives before the code is held and replayed once the code has attached its own listeners, so
 * nothing the visitor does is lost. A click with a modifier key or another button is never held: it keeps
 * its native meaning (a new tab for a link). The shell (shell.ts) wires each enhancement this way.
 */

/** The keys a held keydown replays; Tab, Enter and Space keep their native action. */
const HELD_KEYS = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Escape'];

/**
 * @param target the element the code enhances, or a selector of it; nothing happens on a page without it
 * @param controls the elements inside it whose clicks and keys are held until the code is ready
 * @param load downloads and starts the code; called once, again after a failed download
 */
export function onFirstUse(target: string | Element, controls: string, load: () => Promise<unknown>): void {
  const root = typeof target === 'string' ? document.querySelector(target) : target;
  if (!root) return;
  let loading: Promise<unknown> | undefined;
  let ready = false;
  const start = () =>
    (loading ??= load().then(
      () => (ready = true),
      () => (loading = undefined),
    ));
  for (const type of ['pointerover', 'touchstart', 'focusin'])
    root.addEventListener(type, start, { once: true, passive: true });

  const hold = (event: Event) => {
    const control = !ready && (event.target as Element).closest<HTMLElement>(controls);
    if (!control) return;
    if (event instanceof MouseEvent) {
      if (event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    } else if (!HELD_KEYS.includes((event as KeyboardEvent).key)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    void start().then(() => {
      if (!ready) return;
      if (event.type === 'click') control.click();
      else control.dispatchEvent(new KeyboardEvent(event.type, event as KeyboardEvent));
    });
  };
  root.addEventListener('click', hold, true);
  root.addEventListener('keydown', hold, true);
}
