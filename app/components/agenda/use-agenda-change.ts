import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { asJson } from "~/components/broadcasts/actions";
import type { AgendaActionResult, AgendaChange } from "./actions";

/**
 * A part of the Agenda's way to change it: `submit` sends a change to the route's action at
 * `/agenda`, `busy` while it runs, `onResult` hears each change's result once.
 */
export function useAgendaChange(onResult?: (result: AgendaActionResult) => void) {
  const fetcher = useFetcher<AgendaActionResult>();
  const heard = useRef(onResult);
  heard.current = onResult;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) heard.current?.(fetcher.data);
  }, [fetcher.state, fetcher.data]);
  return {
    submit: (change: AgendaChange) => fetcher.submit(change, { ...asJson, action: "/agenda" }),
    busy: fetcher.state !== "idle",
    result: fetcher.data,
  };
}
