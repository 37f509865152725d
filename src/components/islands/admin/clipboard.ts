/**
 * Puts text on the clipboard. `text` may still be loading: Safari only accepts a write started inside the
 * click, so the pending text goes into a ClipboardItem at once; browsers without it write when it arrives.
 */
export async function copyText(text: string | Promise<string>): Promise<void> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard) throw new Error('Clipboard unavailable');
  if (
    typeof ClipboardItem !== 'undefined' &&
    typeof clipboard.write === 'function' &&
    typeof text !== 'string'
  ) {
    try {
      const blob = Promise.resolve(text).then((value) => new Blob([value], { type: 'text/plain' }));
      await clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      return;
    } catch {
      // Fall through: a failed load rethrows below with its own error; a refused write gets a second try.
    }
  }
  await clipboard.writeText(await text);
}
