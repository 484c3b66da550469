import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { CustomerActionResult, CustomerChange } from "./customer-actions";

/**
 * A details dialog's way to the conversation route's action: `submit` a change, `busy` while
 * it runs, `onResult` once with its answer (the dialog closes, or shows the refusal).
 */
export function useCustomerChange(onResult: (result: CustomerActionResult) => void) {
  const fetcher = useFetcher<CustomerActionResult>();
  const heard = useRef(onResult);
  heard.current = onResult;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) heard.current(fetcher.data);
  }, [fetcher.state, fetcher.data]);
  return {
    submit: (change: CustomerChange) =>
      void fetcher.submit(change, { method: "post", encType: "application/json" }),
    busy: fetcher.state !== "idle",
  };
}
