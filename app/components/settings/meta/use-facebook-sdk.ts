import { useEffect, useState } from "react";
import { toastRefusal } from "~/lib/outcome";
import { loadFacebookSdk } from "~/lib/facebook-sdk";

export type SdkStatus = "idle" | "loading" | "ready" | "error";

/** Loads the Facebook SDK once the server's app is known; 'idle' while it is not. */
export function useFacebookSdk(appId: string | null | undefined, version: string | undefined) {
  const [status, setStatus] = useState<SdkStatus>("idle");

  useEffect(() => {
    if (!appId || !version) return;
    let active = true;
    setStatus("loading");
    loadFacebookSdk({ appId, version }).then(
      () => active && setStatus("ready"),
      (error: unknown) => {
        if (!active) return;
        setStatus("error");
        toastRefusal(error);
      },
    );
    return () => {
      active = false;
    };
  }, [appId, version]);

  return status;
}
