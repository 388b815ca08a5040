/** Text and attribute values for XML 1.0: the five entities, and control characters XML forbids dropped. */
/** XML 1.0 allows tab, line feed and carriage return of the C0 controls, and not U+FFFE/U+FFFF. */
const allowedInXml = (ch: string) => !(ch < ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') && ch !== '\ufffe' && ch !== '\uffff';

export function xmlEscape(s: string): string {
  return [...s]
    .filter(allowedInXml)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** `name="value"` pairs, skipping undefined values, in the order given. */
export function attrs(pairs: Record<string, string | number | undefined>): string {
  return Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
}
