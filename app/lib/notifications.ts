/**
 * What a new customer message does anywhere in the console (spec, realtime socket): an info
 * toast for 5 s, a desktop notification that opens the conversation, and a short sound. A
 * mention in a colleague's note is told the same way, without the sound; its "Ver" (and its
 * desktop notification) opens it as Menciones does, marking it read (decision 0151).
 */
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import type { MessageEvent } from "../../contracts/conversations";
import type { Mention } from "../../contracts/team-inbox";
import { client, data } from "./api";
import { useLiveEvent } from "./use-live";
import { contactLabel } from "~/components/conversations/selectors";
import { useOpenMention } from "~/components/team/actions";

const PREVIEW_LENGTH = 50;
const TOAST_MS = 5000;
const NOTIFICATION_MS = 5000;
const VOLUME = 0.3;

function beep() {
  try {
    const audio = new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.value = VOLUME;
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.15);
    oscillator.onended = () => void audio.close();
  } catch {
    // No audio available (or not allowed yet): the toast is enough.
  }
}

export function useMessageNotifications() {
  const navigate = useNavigate();
  const openMention = useOpenMention();

  useEffect(() => {
    if ("Notification" in window && Notification.permission === "default") {
      void Notification.requestPermission().catch(() => undefined);
    }
  }, []);

  useLiveEvent<MessageEvent>("new_message", ({ message, conversation }) => {
    const who = contactLabel(conversation);
    const preview = message.content.slice(0, PREVIEW_LENGTH);
    toast.info("Nuevo mensaje de WhatsApp", {
      description: `${who}: ${preview}`,
      duration: TOAST_MS,
    });
    beep();
    notifyDesktop(who, preview, conversation.id, () =>
      navigate(`/conversations/${conversation.id}`),
    );
  });

  // A colleague named this member in an internal note (sent to their sockets only).
  useLiveEvent<{ mention: Mention }>("mention", ({ mention }) => {
    void authorName(mention.author_id).then((author) => {
      const title = `${author} te mencionó en una nota`;
      const open = () => openMention(mention);
      toast.info(title, {
        description: mention.excerpt,
        duration: TOAST_MS,
        action: { label: "Ver", onClick: open },
      });
      notifyDesktop(title, mention.excerpt, `mention-${mention.id}`, open);
    });
  });
}

/** A desktop notification, when the person allowed them; a click opens what it is about. */
function notifyDesktop(title: string, body: string, tag: string, open: () => void) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const notification = new Notification(title, { body, tag });
  notification.onclick = () => {
    window.focus();
    open();
    notification.close();
  };
  setTimeout(() => notification.close(), NOTIFICATION_MS);
}

/** Who wrote a note, from the organization's members ("Un compañero" if unknown). */
async function authorName(userId: string | null) {
  const members = await data(client.organizations.members.$get()).catch(() => []);
  return members.find((m) => m.user_id === userId)?.full_name ?? "Un compañero";
}
