/**
 * Saves text the app built (an export) through the browser's download: the web transport gets a
 * download, Electron its Save dialog (the session's default for downloads), one path for both.
 */
export function saveTextFile(fileName: string, mime: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has its own reference by now; the URL only needs to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
