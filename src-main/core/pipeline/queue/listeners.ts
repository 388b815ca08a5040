import type { Logger } from '../../util/logger';

/** The queue's listeners of one kind: one that throws is logged, and the others still hear. */
export class Listeners<T> {
  private readonly all = new Set<(value: T) => void>();

  constructor(private readonly logger?: Logger) {}

  add(listener: (value: T) => void): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }

  emit(value: T): void {
    for (const l of this.all) {
      try {
        l(value);
      } catch (e) {
        this.logger?.warn('queue.listener.failed', { message: (e as Error).message });
      }
    }
  }
}
