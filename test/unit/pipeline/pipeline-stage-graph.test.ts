import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDEX_STAGES, STAGE_GRAPH, STAGE_NAMES, type StageDecl } from '../../../src-shared/contract/stage-graph';
import { BACKGROUND_STAGES } from '../../../src-shared/contract/jobs';
import { REPO_ROOT } from '../../helpers/paths';

/** The stage table of docs/notes-pipeline.md, parsed as a reader would. */
function documentedGraph(): Map<string, string[]> {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'notes-pipeline.md'), 'utf8');
  const block = /<!-- stage-graph:begin -->([\s\S]*?)<!-- stage-graph:end -->/.exec(doc);
  if (!block) throw new Error('docs/notes-pipeline.md has no stage-graph table');
  const rows = block[1]!
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
  return new Map(rows.map((cells) => [cells[0]!, cells.slice(1)]));
}

function describeDecl(d: StageDecl): string[] {
  const billable = d.resource === 'network' ? (d.billable ? 'yes' : 'no') : '';
  const loops = Object.entries(d.loopBacks ?? {}).map(([name, to]) => `${name}: ${to}`).join(', ');
  return [d.resource, d.lane, billable, d.next ?? '—', loops];
}

describe('stage graph', () => {
  it('the documented table is the declared graph, stage by stage', () => {
    const doc = documentedGraph();
    expect([...doc.keys()]).toEqual(STAGE_NAMES);
    for (const name of STAGE_NAMES) expect(doc.get(name), name).toEqual(describeDecl(STAGE_GRAPH[name]));
  });

  it('every next and loop-back names a declared stage; the indexing chain starts at probe and ends at index', () => {
    for (const d of Object.values(STAGE_GRAPH) as StageDecl[]) {
      for (const to of [d.next, ...Object.values(d.loopBacks ?? {})]) if (to !== null) expect(STAGE_NAMES).toContain(to);
      if (d.resource === 'cpu') expect(d.billable).toBeUndefined();
    }
    expect(INDEX_STAGES[0]).toBe('probe');
    expect(INDEX_STAGES.at(-1)).toBe('index');
    expect(INDEX_STAGES.every((s) => STAGE_GRAPH[s].indexing)).toBe(true);
    // The preview lane comes first in the chain: posters never wait for analysis.
    const lanes = INDEX_STAGES.map((s) => STAGE_GRAPH[s].lane);
    expect(lanes.lastIndexOf('preview')).toBeLessThan(lanes.indexOf('local'));
  });
  it("the stages Jobs pauses as one in the background are the graph's background lane, no more, no fewer", () => {
    // The contract keeps them as a literal (zod's enum wants one): this ties it to the graph.
    expect([...BACKGROUND_STAGES].sort()).toEqual(STAGE_NAMES.filter((s) => STAGE_GRAPH[s].lane === 'background').sort());
  });
});
