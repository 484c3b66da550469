/**
 * What a new customer message does anywhere in the console (spec, realtime socket): an info
 * toast for 5 s, a desktop notification that opens the conversation, and a short sound.
 */
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import type { MessageEvent } from "../../worker/conversations/contract";
import { useRealtimeEvent } from "./use-realtime-event";
import { contactLabel } from "~/components/conversations/selectors";

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

  useEffect(() => {
    if ("Notification" in window && Notification.permission === "default") {
      void Notification.requestPermission().catch(() => undefined);
    }
  }, []);

  useRealtimeEvent<MessageEvent>("new_message", ({ message, conversation }) => {
    const who = contactLabel(conversation);
    const preview = message.content.slice(0, PREVIEW_LENGTH);
    toast.info("Nuevo mensaje de WhatsApp", {
      description: `${who}: ${preview}`,
      duration: TOAST_MS,
    });
    beep();
    if ("Notification" in window && Notification.permission === "granted") {
      const notification = new Notification(who, { body: preview, tag: conversation.id });
      notification.onclick = () => {
        window.focus();
        navigate(`/conversations/${conversation.id}`);
        notification.close();
      };
      setTimeout(() => notification.close(), NOTIFICATION_MS);
    }
  });
}
