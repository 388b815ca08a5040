/**
 * The stage graph, declared once. The pipeline registers one handler per stage named here (a
 * handler for an undeclared stage, or a `next` to one, does not compile), the queue orders its
 * work by `lane`, the Jobs view labels stages from it, and docs/notes-pipeline.md's graph is
 * checked against it by test/unit/pipeline/pipeline-stage-graph.test.ts.
 *
 * Lanes: every clip goes through the `preview` lane (probe, poster: a keyframe seek) before any
 * clip starts the `local` lane, so a dropped card shows all its posters within seconds; the local
 * and network lanes then run clip after clip (the lowest clip id first), network stages of earlier
 * clips overlapping CPU stages of later ones.
 */
export type StageResource = 'cpu' | 'network';
export type StageLane = 'preview' | 'local' | 'network' | 'collections' | 'background';

export interface StageDecl {
  label: string;
  resource: StageResource;
  lane: StageLane;
  /** Network stages only: false for calls that cost nothing (status polls go on through a quota pause). */
  billable?: boolean;
  /** The stage a success hands over to (null: the chain ends). */
  next: string | null;
  /**
   * Named edges off the chain: back to an earlier stage when the service lost or failed something,
   * or (analysis, teamResults) on to `index` when another seat of a team library indexed the clip.
   */
  loopBacks?: Readonly<Record<string, string>>;
  /** Part of a clip's indexing (the Jobs progress counts these). */
  indexing: boolean;
}

export const STAGE_GRAPH = {
  probe: { label: 'Probe', resource: 'cpu', lane: 'preview', next: 'poster', indexing: true },
  poster: { label: 'Poster', resource: 'cpu', lane: 'preview', next: 'analysis', indexing: true },
  analysis: { label: 'Shots, faces & tensors', resource: 'cpu', lane: 'local', next: 'upload', loopBacks: { teamResults: 'index' }, indexing: true },
  upload: { label: 'Upload tensors', resource: 'network', lane: 'network', billable: true, next: 'submit', indexing: true },
  submit: { label: 'Submit tasks', resource: 'network', lane: 'network', billable: true, next: 'poll', loopBacks: { keysLost: 'upload' }, indexing: true },
  poll: {
    label: 'Wait for results',
    resource: 'network',
    lane: 'network',
    billable: false,
    next: 'index',
    loopBacks: { reupload: 'upload', resubmit: 'submit' },
    indexing: true,
  },
  index: { label: 'Index', resource: 'cpu', lane: 'local', next: null, loopBacks: { awaitResults: 'poll' }, indexing: true },
  'collection-upload': { label: 'Upload to collection', resource: 'network', lane: 'collections', billable: true, next: 'collection-poll', indexing: false },
  'collection-poll': { label: 'Collection processing', resource: 'network', lane: 'collections', billable: false, next: null, indexing: false },
  /** The reference queries relevance is measured against (search/relevance/query-bank.ts): one job, not per clip. */
  'query-bank': { label: 'Reference queries', resource: 'network', lane: 'network', billable: true, next: null, indexing: false },
  /**
   * A viewing proxy for a clip indexed before it had one (or before Settings wanted one): its own
   * decode, so it runs last, after every clip's indexing (a new clip's proxy comes from its analysis decode).
   */
  proxy: { label: 'Viewing proxy', resource: 'cpu', lane: 'background', next: null, indexing: false },
  /**
   * Face identities for a clip whose faces were found without them (analysed while face recognition
   * was off, or adopted from another seat of a team, which shares boxes only): its own decode, last.
   */
  identities: { label: 'Face print', resource: 'cpu', lane: 'background', next: null, indexing: false },
  /**
   * The rate a VFR clip probed before catalog 0063 was shot at, read from its first pictures (a read
   * of the container, no decode): marked by catalog 0064; a clip probed since never needs it.
   */
  rate: { label: 'Frame rate reading', resource: 'cpu', lane: 'background', next: null, indexing: false },
} as const satisfies Record<string, StageDecl>;

export type StageName = keyof typeof STAGE_GRAPH;
type Graph = typeof STAGE_GRAPH;
/** The stages `from` may hand over to: its next and its loop-backs. */
export type NextOf<S extends StageName> =
  | Exclude<Graph[S]['next'], null>
  | (Graph[S] extends { loopBacks: infer L } ? L[keyof L] : never);

export const STAGE_NAMES = Object.keys(STAGE_GRAPH) as StageName[];

/**
 * The one clip-less stage, named here for the modules that enqueue or claim it without running it:
 * search's module enqueues it, a team library's seats lease it (src-main/core/team/syncs/text-sharing.ts).
 */
export const QUERY_BANK_STAGE = 'query-bank' satisfies StageName;

/** The indexing chain in order, walked from its first stage along `next`. */
export const INDEX_STAGES: readonly StageName[] = (() => {
  const out: StageName[] = [];
  for (let s: StageName | null = 'probe'; s; s = STAGE_GRAPH[s].next as StageName | null) out.push(s);
  return out;
})();

/** Queue order of lanes: lower goes first at equal priority. */
export const LANE_ORDER: Readonly<Record<StageLane, number>> = { preview: 0, local: 1, network: 1, collections: 2, background: 3 };
