export const ROOT: string;
/** Where the record of the last build, the build lock and start:web's run copies live (.tmp/out). */
export function stateDir(root?: string): string;
/** sha256 over the build's inputs (paths and contents). */
export function inputsHash(root?: string): string;
/** The inputs' hash out/ was built from, while out/ is still that build; else null. */
export function currentBuild(root?: string): string | null;
export function withLock<T>(fn: () => T, root?: string): T;
export function ensureBuiltLocked(root?: string, opts?: { force?: boolean; quiet?: boolean }): string;
/** Builds out/ if its sources changed since its last build (into a fresh folder, swapped in by rename); returns their hash. */
export function ensureBuilt(root?: string, opts?: { force?: boolean; quiet?: boolean }): string;
