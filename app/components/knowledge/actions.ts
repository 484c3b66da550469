/** What the knowledge screen changes, as its route action does it (app/routes/knowledge.tsx). */
import type { KnowledgeEntry } from "../../../worker/knowledge/contract";
import { api, errorMessage } from "~/lib/api";
import { serverFieldErrors, type FieldErrors } from "~/lib/forms";

export type KnowledgeIntent = "create" | "update" | "delete" | "import";

export type KnowledgeActionResult =
  | { ok: true; intent: KnowledgeIntent; message: string }
  | { ok: false; intent: KnowledgeIntent; error: string; fieldErrors: FieldErrors };

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

async function perform(intent: KnowledgeIntent, form: FormData) {
  const id = encodeURIComponent(text(form, "id"));
  switch (intent) {
    case "create":
      await api.post<KnowledgeEntry>("/knowledge", {
        title: text(form, "title"),
        content: text(form, "content"),
      });
      return "Entrada creada";
    case "update":
      await api.patch<KnowledgeEntry>(`/knowledge/${id}`, {
        title: text(form, "title"),
        content: text(form, "content"),
      });
      return "Entrada actualizada";
    case "delete":
      await api.delete(`/knowledge/${id}`);
      return "Entrada eliminada";
    case "import": {
      const upload = new FormData();
      upload.append("file", form.get("file") as File);
      const entry = await api.upload<KnowledgeEntry>("/knowledge/import", upload);
      return `Importado como «${entry.title}»`;
    }
  }
}

export async function knowledgeAction(form: FormData): Promise<KnowledgeActionResult> {
  const intent = text(form, "intent") as KnowledgeIntent;
  try {
    return { ok: true, intent, message: await perform(intent, form) };
  } catch (error) {
    return { ok: false, intent, error: errorMessage(error), fieldErrors: serverFieldErrors(error) };
  }
}
