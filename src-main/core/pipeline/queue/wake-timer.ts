/** One timer for the queue's next due job (a backoff or a stage's "again later" ending). */
export class WakeTimer {
  private timer: NodeJS.Timeout | null = null;
  private at = Infinity;

  constructor(
    private readonly fire: () => void,
    private readonly now: () => number,
  ) {}

  /** Wakes at `at` (never for Infinity); a timer already set for that moment is kept. */
  set(at: number): void {
    if (at === this.at && this.timer) return;
    this.clear();
    if (at === Infinity) return;
    this.at = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.at = Infinity;
        this.fire();
      },
      Math.max(0, at - this.now()) + 5,
    );
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.at = Infinity;
  }
}
