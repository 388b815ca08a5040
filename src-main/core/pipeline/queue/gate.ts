import { STAGE_GRAPH, type StageName } from '../../../../src-shared/contract/stage-graph';
import type { CatalogDb } from '../../catalog/open-catalog';
import { BLOCK_REASONS, primaryBlock, type BlockReason } from './error-policy';
import type { JobResource } from './job-types';
import { createQueueFlagsStore, type QueueFlagsStore } from './queue-flags-store';

export interface BlockState {
  reason: BlockReason;
  message: string;
  since: number;
}

export interface GateState {
  open: boolean;
  /** The block the banner shows: the one the user must act on first. */
  primary: BlockState | null;
  blocks: BlockState[];
}

/** Blocks that outlive a restart: the user's pause and a quota stop. */
const PERSISTED_BLOCKS: readonly BlockReason[] = ['user', 'quota'];

/**
 * Whether the gate lets a stage start: nothing without room on the disk; CPU otherwise; network
 * when open, or when only quota holds and the stage is free.
 */
export function gateLets(stage: StageName, blocks: ReadonlySet<BlockReason> | ReadonlyMap<BlockReason, unknown>): boolean {
  const decl: { resource: JobResource; billable?: boolean } = STAGE_GRAPH[stage];
  if (blocks.has('disk')) return false;
  if (decl.resource === 'cpu' || blocks.size === 0) return true;
  return blocks.size === 1 && blocks.has('quota') && decl.billable === false;
}

/**
 * The queue's one switch in front of its stages: the blocks that hold it (user pause, quota, auth,
 * offline, a full disk), the user's and quota's kept in `queue_flags` across a restart. It only
 * holds the state; the queue stops and restarts the runs.
 */
export class QueueGate {
  private readonly blocks = new Map<BlockReason, BlockState>();
  private readonly flags: QueueFlagsStore;

  constructor(db: CatalogDb) {
    this.flags = createQueueFlagsStore(db);
  }

  /** The persisted blocks, read back at start. */
  restore(now: number): void {
    for (const row of this.flags.persistedBlocks()) {
      const reason = row.name.slice('block.'.length) as BlockReason;
      if (!PERSISTED_BLOCKS.includes(reason)) continue;
      try {
        const v = JSON.parse(row.value_json) as { message?: string; since?: number };
        this.blocks.set(reason, { reason, message: v.message ?? '', since: v.since ?? now });
      } catch {
        this.blocks.set(reason, { reason, message: '', since: now });
      }
    }
  }

  state(): GateState {
    const blocks = [...this.blocks.values()].sort((a, b) => BLOCK_REASONS.indexOf(a.reason) - BLOCK_REASONS.indexOf(b.reason));
    const p = primaryBlock(this.blocks.keys());
    return { open: blocks.length === 0, primary: p ? this.blocks.get(p)! : null, blocks };
  }

  isBlocked(reason?: BlockReason): boolean {
    return reason ? this.blocks.has(reason) : this.blocks.size > 0;
  }

  lets(stage: StageName): boolean {
    return gateLets(stage, this.blocks);
  }

  reasons(): BlockReason[] {
    return [...this.blocks.keys()];
  }

  /** Holds the gate for `reason` (since its first time); true when the banner's words change. */
  close(reason: BlockReason, message: string, now: number): boolean {
    const had = this.blocks.get(reason);
    const state: BlockState = { reason, message, since: had?.since ?? now };
    this.blocks.set(reason, state);
    if (PERSISTED_BLOCKS.includes(reason)) this.flags.saveBlock(`block.${reason}`, JSON.stringify({ message, since: state.since }), now);
    return !had || had.message !== message;
  }

  /** Lifts these blocks; true when one of them held. */
  open(reasons: readonly BlockReason[]): boolean {
    let changed = false;
    for (const reason of reasons) {
      if (this.blocks.delete(reason)) changed = true;
      if (PERSISTED_BLOCKS.includes(reason)) this.flags.dropBlock(`block.${reason}`);
    }
    return changed;
  }
}
