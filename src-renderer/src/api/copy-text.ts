/**
 * Puts text on the clipboard; true when it got there. The async Clipboard API can wait for ever
 * (a window without focus, a permission prompt nobody sees), which left "Copy path" silent: after
 * a second the selection-and-copy way is tried instead, so the editor always hears how it went.
 */
export async function copyText(text: string): Promise<boolean> {
  const viaApi = navigator.clipboard?.writeText(text).then(
    () => true,
    () => false,
  );
  const answered = viaApi ? await Promise.race([viaApi, new Promise<null>((r) => setTimeout(() => r(null), 1000))]) : null;
  if (answered) return true;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
