import type { D1Migration } from "cloudflare:test";
import type * as TestWorker from "./test-worker";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
    // Types `exports.default` from "cloudflare:workers" as the Worker under test.
    interface GlobalProps {
      mainModule: typeof TestWorker;
      durableNamespaces: "OrganizationHub";
    }
  }
}
