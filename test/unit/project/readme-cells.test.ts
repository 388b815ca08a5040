import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths';

/**
 * Issue 42 item 7: the README's tables hold short cells (what a command does, its latest figure,
 * where the details are); histories and long reasoning live in `docs/`. A cell over this many
 * characters is a history creeping back.
 */
const MAX_CELL_CHARS = 600;

interface Cell {
  line: number;
  text: string;
}

/** Every cell of every markdown table in `markdown` (rows are lines starting with `|`, outside fenced code). */
function tableCells(markdown: string): Cell[] {
  const cells: Cell[] = [];
  let fenced = false;
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    if (fenced || !raw.startsWith('|')) return;
    // Split on pipes not escaped with a backslash; the first and last pieces are outside the row's pipes.
    const parts = raw.trimEnd().split(/(?<!\\)\|/);
    for (const part of parts.slice(1, raw.trimEnd().endsWith('|') ? -1 : undefined)) {
      cells.push({ line: i + 1, text: part.trim() });
    }
  });
  return cells;
}

describe('README tables', () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const cells = tableCells(readme);

  it('finds the tables', () => {
    expect(cells.length).toBeGreaterThan(100);
  });

  it(`has no cell over ${MAX_CELL_CHARS} characters (histories go to docs/)`, () => {
    const long = cells.filter((c) => c.text.length > MAX_CELL_CHARS).map((c) => `README.md:${c.line} ${c.text.length} chars: ${c.text.slice(0, 60)}...`);
    expect(long).toEqual([]);
  });

  it('points only to docs files that exist', () => {
    const missing = new Set<string>();
    for (const c of cells) {
      for (const [, file = ''] of c.text.matchAll(/`(docs\/[^`\s]+?)`/g)) {
        if (!fs.existsSync(path.join(REPO_ROOT, file))) missing.add(`README.md:${c.line} ${file}`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
