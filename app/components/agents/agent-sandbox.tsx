import { Dialog, DialogPanel, DialogTitle, Description } from "@headlessui/react";
import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { Agent } from "../../../contracts/agents";
import { MAX_MESSAGE_LENGTH, type AiSource } from "../../../contracts/conversations";
import { AiSources } from "~/components/conversations/ai-sources";
import { Button } from "~/components/ui/button";
import type { AgentTest, AgentTestResult } from "./actions";

/** What the sandbox shows: the two voices, and the handoff notices (never sent to the model). */
type Entry =
  | { kind: "user" | "assistant"; content: string; sources?: AiSource[] }
  | { kind: "handoff"; reason: string };

/** The test endpoint takes at most 50 messages: a long session sends its latest ones. */
const MAX_TEST_MESSAGES = 50;

const transcriptOf = (entries: Entry[]) =>
  entries
    .flatMap((e) => (e.kind === "handoff" ? [] : [{ role: e.kind, content: e.content }]))
    .slice(-MAX_TEST_MESSAGES);

export const handoffNotice = (reason: string) =>
  `El agente pasaría la conversación a una persona: ${reason}`;

interface AgentSandboxProps {
  /** The agent to try; null keeps the panel closed. */
  agent: Pick<Agent, "id" | "name"> | null;
  onClose: () => void;
}

/** A message on its way: the transcript asked about, and what to put back if it is refused. */
interface Asking {
  generation: number;
  asked: Entry[];
  before: Entry[];
  content: string;
}

/**
 * 'Probar agente': the team writes as a customer would; every message sends the whole
 * transcript to the route's action (`POST /agents/{id}/test`, agents-action.ts) and the answer
 * appears as the agent's bubble.
 */
export function AgentSandbox({ agent, onClose }: AgentSandboxProps) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [draft, setDraft] = useState("");
  const [thinking, setThinking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Answers to a transcript that was since cleared (Reiniciar, another agent) are dropped.
  const generation = useRef(0);
  const log = useRef<HTMLOListElement>(null);
  const tester = useFetcher<AgentTestResult>();
  const asking = useRef<Asking | null>(null);

  function reset() {
    generation.current += 1;
    setEntries([]);
    setThinking(false);
    setError(null);
  }

  const agentId = agent?.id;
  useEffect(() => {
    reset();
    setDraft("");
  }, [agentId]);

  useEffect(() => {
    const list = log.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [entries, thinking]);

  // The agent answered (or the test was refused): shown, unless the transcript was cleared since.
  useEffect(() => {
    const result = tester.data;
    const ask = asking.current;
    if (!result || !ask) return;
    asking.current = null;
    if (generation.current !== ask.generation) return;
    setThinking(false);
    if (!result.ok) {
      // Nothing was answered: the message goes back to the box to try again.
      setEntries(ask.before);
      setDraft((typed) => typed || ask.content);
      setError(result.message);
      return;
    }
    const { answer } = result;
    const answered: Entry[] = [...ask.asked];
    if (answer.reply) {
      answered.push({ kind: "assistant", content: answer.reply, sources: answer.sources });
    }
    if (answer.handoff) answered.push({ kind: "handoff", reason: answer.handoff.reason });
    setEntries(answered);
  }, [tester.data]);

  function send() {
    const content = draft.trim();
    if (!agent || !content || thinking) return;
    const before = entries;
    const asked: Entry[] = [...before, { kind: "user", content }];
    asking.current = { generation: generation.current, asked, before, content };
    setEntries(asked);
    setDraft("");
    setError(null);
    setThinking(true);
    const test: AgentTest = { intent: "test", id: agent.id, messages: transcriptOf(asked) };
    void tester.submit(test, { method: "post", encType: "application/json" });
  }

  return (
    <Dialog open={agent !== null} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
      <div className="fixed inset-0 flex justify-end">
        <DialogPanel className="flex h-full w-full max-w-md flex-col bg-slate-100 shadow-xl">
          <header className="flex items-start justify-between gap-3 border-b border-slate-200 bg-white p-4">
            <div className="min-w-0">
              <DialogTitle className="truncate font-semibold text-slate-900">
                Probar agente: {agent?.name}
              </DialogTitle>
              <Description className="text-xs text-slate-500">
                Escribe como lo haría un cliente. Nada se envía por WhatsApp.
              </Description>
            </div>
            <div className="flex shrink-0 gap-2">
              <Button
                variant="ghost"
                className="px-3"
                onClick={reset}
                disabled={entries.length === 0 && !error && !thinking}
              >
                Reiniciar
              </Button>
              <Button variant="secondary" className="px-3" onClick={onClose}>
                Cerrar
              </Button>
            </div>
          </header>
          <ol
            ref={log}
            role="log"
            aria-label="Conversación de prueba"
            className="flex-1 space-y-2 overflow-y-auto p-4"
          >
            {entries.length === 0 && (
              <li className="mt-8 text-center text-sm text-slate-500">
                Escribe un primer mensaje, por ejemplo «Hola, ¿a qué hora abrís?».
              </li>
            )}
            {entries.map((entry, index) => (
              <SandboxEntry key={index} entry={entry} />
            ))}
            {thinking && (
              <li className="flex justify-end" aria-label="El agente está escribiendo">
                <span className="rounded-2xl bg-white px-3 py-2 text-sm text-slate-500 shadow-sm">
                  El agente está escribiendo…
                </span>
              </li>
            )}
          </ol>
          {error && (
            <p
              role="alert"
              className="border-t border-red-200 bg-red-50 px-4 py-2 text-sm text-red-700"
            >
              {error}
            </p>
          )}
          <SandboxComposer value={draft} busy={thinking} onChange={setDraft} onSend={send} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The customer on the left, the agent on the right (as in the inbox), handoffs as notices. */
function SandboxEntry({ entry }: { entry: Entry }) {
  if (entry.kind === "handoff") {
    return (
      <li className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {handoffNotice(entry.reason)}
      </li>
    );
  }
  const customer = entry.kind === "user";
  return (
    <li className={`flex flex-col ${customer ? "items-start" : "items-end"}`}>
      <div
        className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm shadow-sm ${customer ? "bg-white text-slate-900" : "bg-emerald-700 text-white"}`}
      >
        <p className="sr-only">{customer ? "Cliente:" : "Agente:"}</p>
        <p className="whitespace-pre-wrap break-words">{entry.content}</p>
      </div>
      <AiSources sources={entry.sources ?? []} />
    </li>
  );
}

/** Enter sends, Shift+Enter starts a new line; the box stays usable while the agent answers. */
function SandboxComposer({
  value,
  busy,
  onChange,
  onSend,
}: {
  value: string;
  busy: boolean;
  onChange: (value: string) => void;
  onSend: () => void;
}) {
  const id = useId();
  return (
    <form
      className="flex items-end gap-2 border-t border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSend();
      }}
    >
      <label className="sr-only" htmlFor={id}>
        Escribe un mensaje
      </label>
      <textarea
        id={id}
        rows={2}
        data-autofocus
        maxLength={MAX_MESSAGE_LENGTH}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
          e.preventDefault();
          onSend();
        }}
        placeholder="Escribe como un cliente… (Enter envía, Mayús+Enter nueva línea)"
        className="flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
      />
      <Button type="submit" disabled={busy || !value.trim()}>
        {busy ? "Esperando..." : "Enviar"}
      </Button>
    </form>
  );
}
