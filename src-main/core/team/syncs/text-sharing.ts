import { QUERY_BANK_STAGE } from '../../../../src-shared/contract/stage-graph';
import { toAppError } from '../../../../src-shared/errors';
import { blobToFloat32, float32ToBlob } from '../../catalog/vector-blob';
import { claimTeamwideJob, completeTeamJob, teamwideJobOf } from '../server/team-job-store';
import type { LeaseKeeper } from '../seat/lease-keeper';
import type { TeamLink } from '../seat/team-link';
import { recordTeamTextVector, teamTextVectors } from '../server/text-vector-store';
import { silentLogger, type Logger } from '../../util/logger';
import type { EmbeddingSpace } from '../../search/index/embedding-space';
import type { TextShare } from '../../team-port';
import { normalizeQuery } from '../../search/query/query-embedding-store';

const MAX_WAIT_MS = 15_000;

export class TeamTextSharing implements TextShare {
  private readonly log: Logger;

  constructor(private readonly o: { link: TeamLink; leases: LeaseKeeper; logger?: Logger }) {
    this.log = o.logger ?? silentLogger;
  }

  online(): boolean {
    return this.o.link.online();
  }

  async known(space: EmbeddingSpace, texts: readonly string[]): Promise<Map<string, Float32Array>> {
    if (texts.length === 0) return new Map();
    try {
      const rows = await this.o.link.withClient((c) => teamTextVectors(c, space.model, space.region, texts.map(normalizeQuery)));
      const out = new Map<string, Float32Array>();
      for (const [norm, blob] of rows) {
        try {
          out.set(norm, blobToFloat32(blob));
        } catch {
          // A damaged row is a miss: the service encodes it again.
        }
      }
      return out;
    } catch (e) {
      this.log.debug('team.text.unavailable', { message: toAppError(e).message });
      return new Map();
    }
  }

  async encoded(space: EmbeddingSpace, text: string, vector: ArrayLike<number>): Promise<void> {
    const t = { norm: normalizeQuery(text), model: space.model, region: space.region, vector: float32ToBlob(vector) };
    await this.o.link.withClient((c) => recordTeamTextVector(c, this.o.link.seatId, t)).catch((e) => this.log.debug('team.text.unsent', { message: toAppError(e).message }));
  }

  async claimBank(): Promise<{ kind: 'here'; done(): Promise<void> } | { kind: 'wait'; delayMs: number; note: string }> {
    const seat = this.o.link.seatId;
    try {
      return await this.o.link.withClient(async (c) => {
        const lease = await claimTeamwideJob(c, seat, QUERY_BANK_STAGE, this.o.leases.leaseMs);
        if (!lease) {
          const job = await teamwideJobOf(c, QUERY_BANK_STAGE);
          const left = job?.leaseLeftMs ?? MAX_WAIT_MS;
          return { kind: 'wait' as const, delayMs: Math.min(MAX_WAIT_MS, Math.max(1000, left + 500)), note: job?.holder ? `encoded by ${job.holder}` : 'waiting for the team' };
        }
        // Rate limits or a quota stop can make 64 calls outlast one lease: it is renewed meanwhile.
        const kept = this.o.leases.keep({ kind: 'job', lease }, { stage: QUERY_BANK_STAGE, jobId: lease.id });
        return {
          kind: 'here' as const,
          done: async () => {
            kept.drop();
            await this.o.link.withClient((d) => completeTeamJob(d, seat, lease)).catch((e) => this.log.debug('team.bank.unsettled', { message: toAppError(e).message }));
          },
        };
      });
    } catch (e) {
      // Detached: this seat encodes what it needs itself.
      this.log.debug('team.bank.detached', { message: toAppError(e).message });
      return { kind: 'here', done: async () => undefined };
    }
  }
}
