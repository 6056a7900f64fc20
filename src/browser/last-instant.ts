/** The last instant inside an event: ends are exclusive (RFC 5545 3.6.1). */
export function lastInstant(start: Date, end: Date): Date {
  return end > start ? new Date(end.getTime() - 1) : start;
}
