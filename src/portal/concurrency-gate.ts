/** At most `limit` requests in progress; the rest wait in arrival order. */
export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  get queued(): number {
    return this.waiting.length;
  }

  async enter(): Promise<() => void> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next();
      else this.active--;
    };
  }
}
