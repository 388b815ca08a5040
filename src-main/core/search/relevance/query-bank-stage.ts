import { QUERY_BANK_STAGE } from '../../../../src-shared/contract/stage-graph';
import { AppError } from '../../../../src-shared/errors';
import type { StageHandler } from '../../pipeline/queue/job-types';
import type { ServiceClient } from '../../service';
import type { EmbeddingSpace } from '../index/embedding-space';
import type { QueryEmbeddingStore } from '../query/query-embedding-store';
import { BANK_VERSION } from './query-bank';
import { readTextBank } from './text-bank';
import { normalizeQuery } from '../query/query-embedding-store';
import type { TextShare } from '../../team-port';

export interface QueryBankStageDeps {
  queryEmbeddings: QueryEmbeddingStore;
  space: () => EmbeddingSpace;
  /** The index's dimension (0 while empty): a bank of another dimension is of another model. */
  indexDimension: () => number;
  /** The app's background client (the pipeline's): these calls are not someone waiting. */
  client: () => ServiceClient;
  /** Called after each phrase stored, so search picks the bank up the moment it is whole. */
  onEncoded: () => void;
  /** A team library's encoded texts while this seat is joined: one seat encodes the bank for all. */
  textShare: () => TextShare | null;
}

/**
 * The job that encodes the reference queries (query-bank.ts) the service has not encoded for this
 * space yet: one encode_text per missing phrase, each stored as it arrives, so a job cut off by a
 * pause, a quota stop or a crash resumes where it was and nothing is billed twice.
 */
export function queryBankStage(d: QueryBankStageDeps): StageHandler<typeof QUERY_BANK_STAGE> {
  return {
    stage: QUERY_BANK_STAGE,
    async run(ctx) {
      const space = d.space();
      let { missing, total } = readTextBank(d.queryEmbeddings, space, d.indexDimension());
      const share = d.textShare();
      let claim: Awaited<ReturnType<TextShare['claimBank']>> | null = null;
      if (share && missing.length > 0) {
        // The team's copies first; what is still missing is encoded by one seat, which may be this one.
        const team = await share.known(space, missing);
        for (const phrase of missing) {
          const v = team.get(normalizeQuery(phrase));
          if (v) d.queryEmbeddings.saveBankVector(phrase, space, v, BANK_VERSION);
        }
        if (team.size > 0) d.onEncoded();
        ({ missing, total } = readTextBank(d.queryEmbeddings, space, d.indexDimension()));
        if (missing.length > 0) {
          claim = await share.claimBank();
          if (claim.kind === 'wait') return { again: { delayMs: claim.delayMs, note: claim.note } };
        }
      }
      let done = total - missing.length;
      try {
        for (const phrase of missing) {
          if (ctx.stopping.aborted) throw new AppError('cancelled', 'stopping between reference queries');
          const r = await d.client().encodeText(phrase, { signal: ctx.signal });
          d.queryEmbeddings.saveBankVector(phrase, space, r.embedding, BANK_VERSION);
          // In the team before the next call: a seat that dies mid-bank leaves at most the call in flight to encode again.
          await share?.encoded(space, phrase, r.embedding);
          done++;
          ctx.progress(done / total, `${done}/${total} reference queries`);
          d.onEncoded();
        }
      } finally {
        if (claim?.kind === 'here') await claim.done();
      }
    },
  };
}
