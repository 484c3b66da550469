import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { useEffect, useState } from "react";
import type { Agent, AgentTestReply } from "../../../worker/agents/contract";
import { Composer } from "~/components/conversations/composer";
import { Button } from "~/components/ui/button";
import { api, errorMessage } from "~/lib/api";

interface Turn {
  role: "user" | "assistant";
  content: string;
}

/** 'Probar agente': the team writes as a customer would and reads the agent's answers. */
export function AgentSandbox({ agent, onClose }: { agent: Agent | null; onClose: () => void }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [thinking, setThinking] = useState(false);

  useEffect(() => {
    setTurns([]);
    setNotice(null);
  }, [agent]);

  async function send(content: string) {
    if (!agent) return false;
    const transcript: Turn[] = [...turns, { role: "user", content }];
    setTurns(transcript);
    setThinking(true);
    setNotice(null);
    try {
      const answer = await api.post<AgentTestReply>(`/agents/${agent.id}/test`, {
        messages: transcript,
      });
      if (answer.reply) setTurns([...transcript, { role: "assistant", content: answer.reply }]);
      if (answer.handoff)
        setNotice(`El agente pasaría la conversación a una persona: ${answer.handoff.reason}`);
    } catch (error) {
      setNotice(errorMessage(error));
    } finally {
      setThinking(false);
    }
    return true;
  }

  return (
    <Dialog open={agent !== null} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
      <div className="fixed inset-0 flex justify-end">
        <DialogPanel className="flex h-full w-full max-w-md flex-col bg-slate-100 shadow-xl">
          <div className="flex items-center justify-between border-b border-slate-200 bg-white p-4">
            <DialogTitle className="font-semibold">Probar agente: {agent?.name}</DialogTitle>
            <div className="flex gap-2">
              <Button variant="ghost" onClick={() => setTurns([])}>
                Reiniciar
              </Button>
              <Button variant="secondary" onClick={onClose}>
                Cerrar
              </Button>
            </div>
          </div>
          <ol
            className="flex-1 space-y-2 overflow-y-auto p-4"
            aria-live="polite"
            aria-label="Conversación de prueba"
          >
            {turns.length === 0 && (
              <li className="text-center text-sm text-slate-500">
                Escribe como lo haría un cliente por WhatsApp.
              </li>
            )}
            {turns.map((turn, index) => (
              <li
                key={index}
                className={`flex ${turn.role === "user" ? "justify-start" : "justify-end"}`}
              >
                <p
                  className={`max-w-[80%] whitespace-pre-wrap rounded-2xl px-3 py-2 text-sm ${turn.role === "user" ? "bg-white" : "bg-emerald-600 text-white"}`}
                >
                  {turn.content}
                </p>
              </li>
            ))}
            {thinking && <li className="text-sm text-slate-500">El agente está escribiendo…</li>}
          </ol>
          {notice && (
            <p role="status" className="bg-amber-50 px-4 py-2 text-sm text-amber-800">
              {notice}
            </p>
          )}
          <Composer onSend={send} disabled={thinking} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
