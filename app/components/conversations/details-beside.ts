import { useLayoutEffect, useState, type RefObject } from "react";

/** The thread's least width beside the details: the composer keeps 480 px (and its padding). */
const THREAD_MIN_PX = 504;
/** The details column's least width; it is 320 px (`w-80`) where there is room. */
const PANEL_MIN_PX = 272;

/** Classes of the thread's column and of the details' column when both fit side by side. */
export const BESIDE = { thread: "min-w-[31.5rem]", panel: "w-80 min-w-[17rem]" } as const;

/**
 * Whether the details fit beside the thread in `row` (the conversation's width below its
 * header): the thread keeps `THREAD_MIN_PX` and the details at least `PANEL_MIN_PX`. Where
 * they do not (a laptop, with the inbox beside), the details are an overlay over the thread.
 */
export function useDetailsFitBeside(row: RefObject<HTMLElement | null>) {
  const [fits, setFits] = useState(true);
  useLayoutEffect(() => {
    const element = row.current;
    if (!element) return;
    const measure = () => setFits(element.clientWidth >= THREAD_MIN_PX + PANEL_MIN_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [row]);
  return fits;
}
