import type { Frame, Page } from "playwright-core";

/** Whether an element shows a border, an outline and text, as its computed style says. */
export interface VisibleEdges {
  /** A border on any side, of a colour other than its background's and transparent. */
  readonly border: boolean;
  /** An outline of some width and a colour. */
  readonly outline: boolean;
  /** Text, of a colour other than its background's. */
  readonly text: boolean;
}

/** What forced colours leave of an element: its border, outline and text against its background. */
export function visibleEdges(target: Page | Frame, selector: string): Promise<VisibleEdges> {
  return target
    .locator(selector)
    .first()
    .evaluate((element) => {
      const style = getComputedStyle(element);
      const width = (value: string) => Number.parseFloat(value) || 0;
      return {
        // Any side: a calendar's bar is a left border only.
        border: ["top", "right", "bottom", "left"].some(
          (side) =>
            style.getPropertyValue(`border-${side}-style`) !== "none" &&
            width(style.getPropertyValue(`border-${side}-width`)) > 0 &&
            !["rgba(0, 0, 0, 0)", style.backgroundColor].includes(
              style.getPropertyValue(`border-${side}-color`),
            ),
        ),
        outline:
          style.outlineStyle !== "none" &&
          width(style.outlineWidth) > 0 &&
          style.outlineColor !== "rgba(0, 0, 0, 0)",
        text: style.color !== style.backgroundColor && (element.textContent ?? "").trim() !== "",
      };
    });
}
