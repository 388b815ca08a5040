/**
 * How a typed name finds its person. The stored key is the name in NFC, case-folded: "ana maría"
 * and "Ana María" are one person, "Ana Maria" another unless nobody is called "Ana María" (the
 * accent-folded key is only a fallback for an `@name` typed without accents).
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('und');
}

export function foldedKey(name: string): string {
  return nameKey(name).normalize('NFD').replace(/\p{M}+/gu, '');
}
