import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";

interface AutoClose {
  /** Whole seconds left before the window tries to close itself. */
  remaining: number;
  /** True once the browser refused to close the window (it was not opened by a script). */
  closeBlocked: boolean;
  close: () => void;
}

/** Counts down from `seconds` once a second, then tries to close the window. */
export function useAutoClose(seconds: number): AutoClose {
  const [remaining, setRemaining] = useState(seconds);
  const [closeBlocked, setCloseBlocked] = useState(false);

  const close = useCallback(() => {
    window.close();
    // Browsers ignore close() on a window a script did not open, and `closed` stays false.
    if (!window.closed) setCloseBlocked(true);
  }, []);

  useEffect(() => {
    if (closeBlocked) return;
    if (remaining <= 0) {
      close();
      return;
    }
    const timer = window.setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining, closeBlocked, close]);

  return { remaining, closeBlocked, close };
}

interface ConnectionResultProps {
  tone: "success" | "error";
  title: string;
  /** Seconds before the window closes itself. */
  seconds: number;
  children: React.ReactNode;
}

const TONES = {
  success: {
    badge: "bg-emerald-100 text-emerald-700",
    bar: "bg-emerald-500",
    icon: "M16.704 4.153a.75.75 0 0 1 .143 1.052l-8 10.5a.75.75 0 0 1-1.127.075l-4.5-4.5a.75.75 0 0 1 1.06-1.06l3.894 3.893 7.48-9.817a.75.75 0 0 1 1.05-.143Z",
  },
  error: {
    badge: "bg-red-100 text-red-700",
    bar: "bg-red-500",
    icon: "M4.28 3.22a.75.75 0 0 0-1.06 1.06L8.94 10l-5.72 5.72a.75.75 0 1 0 1.06 1.06L10 11.06l5.72 5.72a.75.75 0 1 0 1.06-1.06L11.06 10l5.72-5.72a.75.75 0 0 0-1.06-1.06L10 8.94 4.28 3.22Z",
  },
} as const;

const BUTTON =
  "inline-flex items-center justify-center rounded-lg px-4 py-2 text-sm font-medium transition-colors";
const PRIMARY = "bg-emerald-700 text-white hover:bg-emerald-800";
const SECONDARY = "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50";

/** The page shown in the connection popup after Meta's authorization, success or error. */
export function ConnectionResult({ tone, title, seconds, children }: ConnectionResultProps) {
  const { remaining, closeBlocked, close } = useAutoClose(seconds);
  const style = TONES[tone];

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
        <div
          className={`mx-auto flex h-14 w-14 items-center justify-center rounded-full ${style.badge}`}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-7 w-7">
            <path fillRule="evenodd" d={style.icon} clipRule="evenodd" />
          </svg>
        </div>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">{title}</h1>

        <div className="mt-3 space-y-3 text-slate-600">{children}</div>

        <div className="mt-6">
          <p aria-live="polite" aria-atomic="true" className="text-sm text-slate-600">
            {closeBlocked
              ? "No se pudo cerrar esta ventana automáticamente. Puedes cerrarla manualmente o volver a la configuración."
              : `Esta ventana se cerrará automáticamente en ${remaining} ${remaining === 1 ? "segundo" : "segundos"}.`}
          </p>
          {!closeBlocked && (
            <div aria-hidden="true" className="mt-2 h-1 overflow-hidden rounded-full bg-slate-100">
              <div
                className={`h-full transition-[width] duration-300 ease-out motion-reduce:transition-none ${style.bar}`}
                style={{ width: `${(remaining / seconds) * 100}%` }}
              />
            </div>
          )}
        </div>

        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <button
            type="button"
            onClick={close}
            className={`${BUTTON} ${closeBlocked ? SECONDARY : PRIMARY}`}
          >
            Cerrar ventana
          </button>
          {closeBlocked && (
            <Link to="/settings" className={`${BUTTON} ${PRIMARY}`}>
              Ir a Configuración
            </Link>
          )}
        </div>
      </div>
    </main>
  );
}
