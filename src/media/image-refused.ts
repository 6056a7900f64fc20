/**
 * Why an event image is not published, as the build's warning says it.
 *
 * - `refused`: what the portal sent (or where it pointed) is not published,
 *   ever: a private address, a file that is not what it says, a bomb, a
 *   missing file (404). The event keeps no image, and never the portal's URL.
 * - `unreachable`: the portal's host did not answer in time or answered
 *   with an error (network, 5xx, 429): the copy an earlier build published
 *   is kept when there is one; else the event has no image this build.
 */
export type RefusalKind = "refused" | "unreachable";

export class ImageRefused extends Error {
  override name = "ImageRefused";
  readonly kind: RefusalKind;

  constructor(reason: string, kind: RefusalKind) {
    super(reason);
    this.kind = kind;
  }
}

/** The deadline of all the build's images passed: the image may be fine, and is asked for again next build. */
export function outOfTime(): ImageRefused {
  return new ImageRefused("the build's time for images ran out", "unreachable");
}
