/** The knowledge screen's writes, made by its route's `clientAction` (decision 0105). */
import { client, data, errorMessage } from "~/lib/api";
import { serverFieldErrors } from "~/lib/forms";
import { type KnowledgeIntent, type KnowledgeActionResult } from "~/components/knowledge/actions";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

async function perform(intent: KnowledgeIntent, form: FormData) {
  const id = text(form, "id");
  const written = () => ({ title: text(form, "title"), content: text(form, "content") });
  switch (intent) {
    case "create":
      await client.knowledge.$post({ json: written() });
      return "Entrada creada";
    case "update":
      await client.knowledge[":id"].$patch({ param: { id }, json: written() });
      return "Entrada actualizada";
    case "delete":
      await client.knowledge[":id"].$delete({ param: { id } });
      return "Entrada eliminada";
    case "import": {
      const file = form.get("file") as File;
      const entry = await data(client.knowledge.import.$post({ form: { file } }));
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
