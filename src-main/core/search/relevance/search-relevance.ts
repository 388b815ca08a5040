import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { RelevanceInfo } from '../../../../src-shared/contract/search';
import { toAppError } from '../../../../src-shared/errors';
import type { Logger } from '../../util/logger';
import { spaceKey, type EmbeddingSpace } from '../index/embedding-space';
import type { IndexSyncStore } from '../index/index-sync-store';
import type { SearchIndexManager } from '../index/search-index-manager';
import type { QueryEmbeddingStore } from '../query/query-embedding-store';
import { TextRelevance, VideoRelevance } from './relevance-model';
import { sampleSegmentVectors } from './segment-sample';
import { readTextBank } from './text-bank';

export interface SearchRelevanceDeps {
  index: Pick<SearchIndexManager, 'ready'>;
  queryEmbeddings: QueryEmbeddingStore;
  /** The stored segment vectors (find-similar's sample of the library). */
  indexSync: IndexSyncStore;
  space: () => EmbeddingSpace;
  logger?: Logger;
  /** Relevance readiness changed. */
  onStatusChange?: () => void;
  /** Asks the runner to encode the reference queries (the query-bank stage); called while they are missing. */
  requestBank?: () => void;
}

/** Baselines computed per turn of the event loop while warming (about 15 ms of work). */
const WARM_PAGE = 1024;

/**
 * The relevance of a search's two kinds of query, kept current: the text bank read from the query
 * cache (asking for what is missing), find-similar's sample of the library, and every segment's
 * baseline, warmed in the background and forgotten when its vector changes.
 */
export function createSearchRelevance(d: SearchRelevanceDeps) {
  const text = new TextRelevance();
  const video = new VideoRelevance();
  let videoSample: { key: string; size: number } | null = null;
  let info: RelevanceInfo = { state: 'calibrating', encoded: 0, total: 0 };
  let warming = 0;
  let bankReadFor: string | null = null;

  /**
   * Every segment's baseline and the library's floor, computed in the background once the bank is
   * whole (and after the index is replaced), page by page, yielding between pages: searches then
   * only read them (a cold search computes its own candidates' baselines, ~15 µs each).
   */
  async function warmBaselines(): Promise<void> {
    const token = ++warming;
    try {
      // Never within the caller's turn: the index calls in while it is still being opened.
      await yieldToLoop();
      if (token !== warming) return;
      const index = await d.index.ready();
      if (!text.ready) return;
      const ids = index.ids();
      const vectorOf = (id: number) => index.vector(id);
      for (let i = 0; i < ids.length; i += WARM_PAGE) {
        if (token !== warming || !text.ready) return;
        text.baselines.get(ids.slice(i, i + WARM_PAGE), vectorOf);
        await yieldToLoop();
      }
      if (token === warming && text.ready) text.scorer(index, []);
    } catch (e) {
      d.logger?.warn('search.relevance.warm.failed', { message: toAppError(e).message });
    }
  }

  /** The text bank of the active space, read from the query cache; asks the runner for what is missing. */
  function refreshTextBank(indexDimension: number): void {
    const state = readTextBank(d.queryEmbeddings, d.space(), indexDimension);
    const before = text.baselines.current?.key;
    text.setBank(state.bank);
    if (state.bank && state.bank.key !== before) void warmBaselines();
    const next: RelevanceInfo = { state: state.bank ? 'ready' : 'calibrating', encoded: state.encoded, total: state.total };
    if (JSON.stringify(next) !== JSON.stringify(info)) {
      info = next;
      d.onStatusChange?.();
    }
    if (!state.bank) d.requestBank?.();
  }

  return {
    text,
    video,
    info: (): RelevanceInfo => info,

    /**
     * The bank as a query needs it: read from the catalog only while it is incomplete or when the
     * space or the index's dimension changed; a complete bank changes only through `bankChanged`.
     */
    ensureTextBank(indexDimension: number): void {
      const key = `${spaceKey(d.space())}\n${indexDimension}`;
      if (text.ready && bankReadFor === key) return;
      refreshTextBank(indexDimension);
      bankReadFor = key;
    },

    /** The library's own sample for find-similar, drawn again when the library changed size by a twentieth. */
    refreshVideoSample(size: number): void {
      const space = d.space();
      const key = spaceKey(space);
      if (videoSample && videoSample.key === key && Math.abs(size - videoSample.size) <= videoSample.size / 20) return;
      video.setSample(sampleSegmentVectors(d.indexSync, space));
      videoSample = { key, size };
    },

    /** Vectors changed in the index: their baselines are stale. */
    vectorsChanged(ids: readonly number[] | null): void {
      for (const r of [text, video]) {
        if (ids === null) r.baselines.clear();
        else r.forget(ids);
      }
      if (ids === null) void warmBaselines();
    },

    /** The reference queries were (partly) encoded: read them again. */
    bankChanged: refreshTextBank,
  };
}

export type SearchRelevance = ReturnType<typeof createSearchRelevance>;
