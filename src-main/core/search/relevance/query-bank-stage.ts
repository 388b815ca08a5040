import { AppError } from '../../../../src-shared/errors';
import type { StageHandler } from '../../pipeline/job-types';
import type { ServiceClient } from '../../service';
import type { EmbeddingSpace } from '../embedding-space';
import type { QueryEmbeddingStore } from '../query-embedding-store';
import { BANK_VERSION } from './query-bank';
import { readTextBank } from './text-bank';

export const QUERY_BANK_STAGE = 'query-bank' as const;

export interface QueryBankStageDeps {
  queryEmbeddings: QueryEmbeddingStore;
  space: () => EmbeddingSpace;
  /** The index's dimension (0 while empty): a bank of another dimension is of another model. */
  indexDimension: () => number;
  /** The app's background client (the pipeline's): these calls are not someone waiting. */
  client: () => ServiceClient;
  /** Called after each phrase stored, so search picks the bank up the moment it is whole. */
  onEncoded: () => void;
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
      const { missing, total } = readTextBank(d.queryEmbeddings, space, d.indexDimension());
      let done = total - missing.length;
      for (const phrase of missing) {
        if (ctx.stopping.aborted) throw new AppError('cancelled', 'stopping between reference queries');
        const r = await d.client().encodeText(phrase, { signal: ctx.signal });
        d.queryEmbeddings.saveBankVector(phrase, space, r.embedding, BANK_VERSION);
        done++;
        ctx.progress(done / total, `${done}/${total} reference queries`);
        d.onEncoded();
      }
    },
  };
}
