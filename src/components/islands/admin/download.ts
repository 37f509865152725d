/**
 * Saves CSV text as a file through a temporary link: the subscriber and suppression exports use it. The link
 * is in the document while it is clicked (some browsers ignore a detached one) and the object URL is kept for
 * a few seconds, long enough for the download to start.
 */
export function downloadCsv(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
