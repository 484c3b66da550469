import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { startSessionRead } from "./lib/auth";

// The session is read as soon as the code runs, beside the screen's own loaders, rather than
// after them when the auth provider mounts: one round trip before a console screen shows.
startSessionRead();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
