import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import {
  KNOWLEDGE_CONTENT_MAX,
  KNOWLEDGE_TITLE_MAX,
  knowledgeCreateInput,
  type KnowledgeSummary,
} from "../../../contracts/knowledge";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Modal } from "~/components/ui/modal";
import { Field, TextAreaField } from "~/components/ui/field";
import { client, data, errorMessage } from "~/lib/api";
import { validate, type FieldErrors } from "~/lib/forms";
import type { KnowledgeActionResult } from "./actions";

interface KnowledgeDialogProps {
  open: boolean;
  /** The entry being edited (as the list shows it: its text is read on opening); null to write a new one. */
  entry: KnowledgeSummary | null;
  onClose: () => void;
}

/** 'Nueva entrada' / 'Editar entrada': title and text, saved through the route's action. */
export function KnowledgeDialog({ open, entry, onClose }: KnowledgeDialogProps) {
  const fetcher = useFetcher<KnowledgeActionResult>();
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  /** An edited entry's whole text: on its way, or why it could not be read. */
  const [text, setText] = useState<"ready" | "loading" | { failed: string }>("ready");
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const form = useRef<HTMLFormElement>(null);
  const saving = fetcher.state !== "idle";
  const result = fetcher.data;
  const errors = { ...(result && !result.ok ? result.fieldErrors : {}), ...localErrors };

  useEffect(() => {
    if (!open) return;
    setTitle(entry?.title ?? "");
    setContent("");
    setLocalErrors({});
    if (!entry) return setText("ready");
    // The list holds each entry's beginning only: the whole text is read to edit it.
    let current = true;
    setText("loading");
    data(client.knowledge[":id"].$get({ param: { id: entry.id } })).then(
      (full) => {
        if (!current) return;
        setContent(full.content);
        setText("ready");
      },
      (error: unknown) => current && setText({ failed: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [open, entry]);

  // Saved: the dialog closes (the list reloads by itself after the action).
  useEffect(() => {
    if (fetcher.state === "idle" && result?.ok && open) onClose();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when an answer arrives
  }, [fetcher.state, result]);

  useEffect(() => {
    if (Object.keys(errors).length) {
      form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- after each attempt
  }, [localErrors, result]);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (saving || text !== "ready") return;
    const checked = validate(knowledgeCreateInput, { title, content });
    if (checked.errors) {
      setLocalErrors(checked.errors);
      return;
    }
    setLocalErrors({});
    fetcher.submit(
      { intent: entry ? "update" : "create", id: entry?.id ?? "", ...checked.data },
      { method: "post" },
    );
  }

  return (
    <Modal
      open={open}
      title={entry ? "Editar entrada" : "Nueva entrada"}
      onClose={onClose}
      busy={saving}
      width="xl"
    >
      <form ref={form} onSubmit={submit} noValidate className="mt-4 space-y-4">
        <Field
          label="Título"
          required
          data-autofocus
          maxLength={KNOWLEDGE_TITLE_MAX}
          value={title}
          error={errors.title}
          placeholder="Precios, Horario de verano, Política de devoluciones…"
          onChange={(e) => setTitle(e.target.value)}
        />
        <TextAreaField
          label="Contenido"
          required
          rows={12}
          maxLength={KNOWLEDGE_CONTENT_MAX}
          value={content}
          disabled={text !== "ready"}
          error={
            typeof text === "object" ? `No se pudo leer el texto: ${text.failed}` : errors.content
          }
          hint={
            text === "loading"
              ? "Cargando el texto…"
              : `Lo que el agente puede decir a tus clientes. Hasta ${KNOWLEDGE_CONTENT_MAX.toLocaleString("es-ES")} caracteres (${content.length.toLocaleString("es-ES")} escritos).`
          }
          onChange={(e) => setContent(e.target.value)}
        />
        <DialogActions
          refusal={
            result && !result.ok && !Object.keys(result.fieldErrors).length ? result.error : null
          }
          submitLabel={entry ? "Guardar cambios" : "Crear entrada"}
          busy={saving}
          disabled={text !== "ready"}
          onCancel={onClose}
        />
      </form>
    </Modal>
  );
}
