/**
 * Saves a file through a temporary link: the subscriber and suppression exports and a subscriber's record use
 * it. The link is in the document while it is clicked (some browsers ignore a detached one) and the object URL is
 * kept for a few seconds, long enough for the download to start.
 */
export function downloadFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves CSV text as a file. */
export function downloadCsv(text: string, fileName: string): void {
  downloadFile(new Blob([text], { type: 'text/csv;charset=utf-8' }), fileName);
}

/** The file name a download's Content-Disposition gives, or `fallback`. */
export function attachmentName(response: Response, fallback: string): string {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
}
