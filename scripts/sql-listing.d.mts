/** The listing of the SQL statements of the sources under `root` (default: the repository). */
export function listing(root?: string): string;
