import { useRef, useState } from "react";
import type { Conversion } from "../../../contracts/tracking";
import { readConversions } from "~/components/sales/read-conversions";
import { useMediaQuery, WIDE_SCREEN } from "~/components/ui/use-media-query";
import { useRemembered } from "~/lib/use-remembered";

/** Wide enough that the details panel opens by default: beside it the thread keeps 560 px. */
const DETAILS_OPEN_BY_DEFAULT = "(min-width: 100rem)";

/**
 * A conversation's "Detalles": a panel beside the thread on a wide screen (open by default
 * from 1600 px, then as the person last left it, on this browser), a sheet on a narrower one
 * (closed until asked for). The sales panel in them starts from the conversions it is given
 * and follows events only while shown, so each opening reads them again: `conversions` is
 * null meanwhile.
 */
export function useDetails(conversationId: string, loaded: Conversion[]) {
  const wide = useMediaQuery(WIDE_SCREEN);
  const [panelOpen, setPanelOpen] = useRemembered(
    "atiende:conversation-details",
    () => window.matchMedia(DETAILS_OPEN_BY_DEFAULT).matches,
  );
  const [sheetOpen, setSheetOpen] = useState(false);
  const [conversions, setConversions] = useState<Conversion[] | null>(loaded);
  const reads = useRef(0);

  const toggle = () => {
    const opening = wide ? !panelOpen : true;
    if (wide) setPanelOpen(opening);
    else setSheetOpen(true);
    if (!opening) return;
    const read = ++reads.current;
    const before = conversions ?? loaded;
    setConversions(null);
    readConversions(conversationId).then(
      (list) => read === reads.current && setConversions(list),
      // What was shown before; the panel's own refresh follows the next event.
      () => read === reads.current && setConversions(before),
    );
  };

  return {
    wide,
    /** Whether "Detalles" shows, whichever its form. */
    shown: wide ? panelOpen : sheetOpen,
    panel: wide && panelOpen,
    sheet: !wide && sheetOpen,
    toggle,
    closeSheet: () => setSheetOpen(false),
    conversions,
  };
}
