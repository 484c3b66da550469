/** What the knowledge screen changes, as its route action does it (app/routes/knowledge.tsx). */
import { type FieldErrors } from "~/lib/forms";

export type KnowledgeIntent = "create" | "update" | "delete" | "import";

export type KnowledgeActionResult =
  | { ok: true; intent: KnowledgeIntent; message: string }
  | { ok: false; intent: KnowledgeIntent; error: string; fieldErrors: FieldErrors };
