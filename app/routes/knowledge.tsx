import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { toastDone, toastFailed } from "~/lib/outcome";
import {
  KNOWLEDGE_MAX_ENTRIES,
  KNOWLEDGE_PAGE_SIZE,
  type KnowledgeSummary,
} from "../../contracts/knowledge";
import { type KnowledgeActionResult } from "~/components/knowledge/actions";
import { knowledgeAction } from "./knowledge-action";
import { KnowledgeDialog } from "~/components/knowledge/knowledge-dialog";
import { KnowledgeImport } from "~/components/knowledge/knowledge-import";
import { PageHeader } from "~/components/page-header";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import type { Route } from "./+types/knowledge";
import { RouteError } from "~/components/route-error";

export const meta = () => [{ title: "Conocimiento — Atiende" }];

/** "Cargar más" asks for a longer first page: how many are shown lives in the URL. */
const shownFrom = (url: string) => {
  const asked = Number(new URL(url).searchParams.get("limit"));
  return Number.isInteger(asked) && asked > 0
    ? Math.min(asked, KNOWLEDGE_MAX_ENTRIES)
    : KNOWLEDGE_PAGE_SIZE;
};

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const limit = shownFrom(request.url);
  return data(client.knowledge.$get({ query: { limit: String(limit) } }));
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return knowledgeAction(await request.formData());
}

/** The list's beginning of an entry, with "…" when there is more. */
const preview = ({ excerpt, characters }: KnowledgeSummary) =>
  characters > excerpt.length ? `${excerpt.trimEnd()}…` : excerpt;
const changedAt = (iso: string) =>
  new Date(iso).toLocaleString("es-ES", { dateStyle: "medium", timeStyle: "short" });

export default function Knowledge({
  loaderData: { entries, total, limit, usage },
}: Route.ComponentProps) {
  const { role } = useAuth();
  const canManage = role === "owner" || role === "admin";
  /** The dialog: `{ entry: null }` writes a new one, `{ entry }` edits, null is closed. */
  const [editing, setEditing] = useState<{ entry: KnowledgeSummary | null } | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeSummary | null>(null);
  const remover = useFetcher<KnowledgeActionResult>();
  const removing = remover.state !== "idle";

  useEffect(() => {
    const result = remover.data;
    if (remover.state !== "idle" || !result) return;
    if (result.ok) {
      toastDone(result.message);
      setDeleting(null);
    } else toastFailed("No se pudo eliminar la entrada", result.error);
  }, [remover.state, remover.data]);

  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm">
            <Link to="/agents" className="text-emerald-700 hover:underline">
              ← Agentes
            </Link>
          </p>
          <PageHeader
            title="Conocimiento"
            description="Lo que tus agentes saben de tu negocio: preguntas frecuentes, precios, políticas, horarios. Cada respuesta usa las entradas más relevantes y las muestra como «Fuentes»."
          />
        </div>
        {canManage && (
          <div className="flex flex-wrap items-start gap-3">
            <KnowledgeImport />
            <Button onClick={() => setEditing({ entry: null })}>Nueva entrada</Button>
          </div>
        )}
      </div>

      <p className="mb-3 text-sm text-slate-600">
        {usage.entries.toLocaleString("es-ES")} de {usage.max_entries.toLocaleString("es-ES")}{" "}
        entradas · {usage.characters.toLocaleString("es-ES")} de{" "}
        {usage.max_characters.toLocaleString("es-ES")} caracteres
      </p>

      {entries.length === 0 ? (
        <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="font-medium text-slate-900">Aún no hay conocimiento</h2>
          <p className="mt-1 text-sm text-slate-600">
            Sin entradas, los agentes responden solo con los datos de la organización y, si no saben
            algo, lo dicen y ofrecen pasar con una persona.
          </p>
        </section>
      ) : (
        <ul className="space-y-3" aria-label="Entradas de conocimiento">
          {entries.map((entry) => (
            <li key={entry.id} className="rounded-xl border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <h2 className="font-medium break-words text-slate-900">{entry.title}</h2>
                  <p className="text-xs text-slate-600">
                    {entry.file_name ? `Importado de ${entry.file_name} · ` : ""}
                    Actualizado {changedAt(entry.updated_at)} ·{" "}
                    {entry.characters.toLocaleString("es-ES")} caracteres
                  </p>
                </div>
                {canManage && (
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      className="px-3 py-1"
                      aria-label={`Editar «${entry.title}»`}
                      onClick={() => setEditing({ entry })}
                    >
                      Editar
                    </Button>
                    <Button
                      variant="ghost"
                      className="px-3 py-1 text-red-700"
                      aria-label={`Eliminar «${entry.title}»`}
                      onClick={() => setDeleting(entry)}
                    >
                      Eliminar
                    </Button>
                  </div>
                )}
              </div>
              <p className="mt-2 text-sm break-words whitespace-pre-wrap text-slate-700">
                {preview(entry)}
              </p>
            </li>
          ))}
        </ul>
      )}
      {entries.length < total && (
        <p className="mt-4 text-center">
          <Link
            to={`?limit=${limit + KNOWLEDGE_PAGE_SIZE}`}
            preventScrollReset
            className="inline-block rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            Cargar más
          </Link>
        </p>
      )}

      {canManage && (
        <>
          <KnowledgeDialog
            open={editing !== null}
            entry={editing?.entry ?? null}
            onClose={() => setEditing(null)}
          />
          <ConfirmDialog
            open={deleting !== null}
            title={deleting ? `Eliminar «${deleting.title}»` : "Eliminar entrada"}
            description="Los agentes dejarán de usar esta entrada. ¿Seguro que quieres eliminarla?"
            confirmLabel="Eliminar"
            busyLabel="Eliminando..."
            busy={removing}
            onConfirm={() =>
              deleting && remover.submit({ intent: "delete", id: deleting.id }, { method: "post" })
            }
            onClose={() => setDeleting(null)}
          />
        </>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <RouteError title="Conocimiento" failure="No se pudo cargar el conocimiento" />;
}
