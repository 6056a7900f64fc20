export type RouteName = "calendars" | "events" | "details" | "media" | "problems" | "unknown";

export interface CounterSnapshot {
  total: number;
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  /** Injected faults by kind ("503", "500", "429", "truncated", "reset"). */
  faults: Record<string, number>;
}

/** Request counts for tests: how many requests a client made, where, with what result. */
export class RequestCounters {
  private data: CounterSnapshot = RequestCounters.empty();

  private static empty(): CounterSnapshot {
    return { total: 0, byRoute: {}, byStatus: {}, faults: {} };
  }

  record(route: RouteName, status: number): void {
    this.data.total++;
    this.data.byRoute[route] = (this.data.byRoute[route] ?? 0) + 1;
    this.data.byStatus[status] = (this.data.byStatus[status] ?? 0) + 1;
  }

  fault(kind: string): void {
    this.data.faults[kind] = (this.data.faults[kind] ?? 0) + 1;
  }

  snapshot(): CounterSnapshot {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = RequestCounters.empty();
  }
}
