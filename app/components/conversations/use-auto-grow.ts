import { useLayoutEffect, useRef } from "react";

/** About eight lines of text: past that the box scrolls instead of pushing the thread away. */
const MAX_HEIGHT_PX = 176;

/**
 * A text box as tall as its text (from one line up to `MAX_HEIGHT_PX`), measured again as the
 * text changes and as its width does (a panel opened beside it, the window resized).
 */
export function useAutoGrow(text: string) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const fit = () => {
      box.style.height = "auto";
      // The border is outside scrollHeight; box-sizing is border-box.
      const border = box.offsetHeight - box.clientHeight;
      const wanted = box.scrollHeight + border;
      box.style.height = `${Math.min(wanted, MAX_HEIGHT_PX)}px`;
      box.style.overflowY = wanted > MAX_HEIGHT_PX ? "auto" : "hidden";
    };
    fit();
    let width = box.clientWidth;
    const resized = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      fit();
    });
    resized.observe(box);
    return () => resized.disconnect();
  }, [text]);
  return ref;
}
