import { createPrng, type Prng } from "./prng.ts";

/**
 * Faults a client must survive, drawn from a seeded PRNG so a run with the
 * same seed and the same request order sees the same faults.
 */
const FAULT_KINDS = ["503", "500", "429", "truncated", "reset"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export class FaultInjector {
  private readonly prng: Prng;

  constructor(
    private readonly rate: number,
    seed: number,
  ) {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError("fault rate must be from 0 to 1");
    this.prng = createPrng(seed ^ 0x5eed);
  }

  /** The fault for the next request, or null; draws twice per request either way. */
  next(): FaultKind | null {
    const hit = this.prng.next() < this.rate;
    const kind = this.prng.pick(FAULT_KINDS);
    return hit ? kind : null;
  }
}
