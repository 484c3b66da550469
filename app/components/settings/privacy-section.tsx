import { Description, Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toastDone, toastFailed } from "~/lib/outcome";
import { accountDeletionInput } from "../../../contracts/auth";
import { useSettingsChange } from "~/components/settings/actions";
import { Button } from "~/components/ui/button";
import { DialogActions } from "~/components/ui/dialog-actions";
import { Field } from "~/components/ui/field";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { validate, type FieldErrors } from "~/lib/forms";
import { SecretForm } from "~/components/ui/secret-form";

const EXPORT_FILE_NAME = "mis-datos-atiende.json";

/** Saves `data` as a JSON file through a temporary link. */
function saveJson(data: unknown, fileName: string) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked later: the browser may still be reading the blob when click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The privacy policy's rights of access, portability and erasure, for the signed-in user. */
export function PrivacySection() {
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function downloadData() {
    setExporting(true);
    try {
      saveJson(await data(client.profiles.me.export.$get()), EXPORT_FILE_NAME);
      toastDone("Datos descargados");
    } catch (error) {
      toastFailed("Error al descargar tus datos", error);
    } finally {
      setExporting(false);
    }
  }

  return (
    <section aria-labelledby="privacy-title" className="mt-10 max-w-xl">
      <h2 id="privacy-title" className="text-lg font-semibold">
        Privacidad
      </h2>
      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4">
        <h3 className="font-medium text-slate-900">Descargar mis datos</h3>
        <p className="mt-1 text-sm text-slate-600">
          Un archivo JSON con todo lo que guardamos sobre ti y, si eres propietario, los datos de tu
          organización.
        </p>
        <Button
          variant="secondary"
          className="mt-3"
          disabled={exporting}
          onClick={() => void downloadData()}
        >
          {exporting ? "Preparando..." : "Descargar mis datos"}
        </Button>
      </div>
      <div className="mt-4 rounded-xl border border-red-200 bg-white p-4">
        <h3 className="font-medium text-slate-900">Eliminar mi cuenta</h3>
        <p className="mt-1 text-sm text-slate-600">
          Se eliminan tu cuenta y todas tus sesiones. Si eres el único propietario, también se
          elimina la organización con todos sus datos. No se puede deshacer.
        </p>
        <Button variant="danger" className="mt-3" onClick={() => setDeleting(true)}>
          Eliminar mi cuenta
        </Button>
      </div>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </section>
  );
}

/**
 * Asks the password again before the route's action erases the account (settings-action.ts,
 * with its toast; nothing is read again after it), then signs out.
 */
function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [leaving, setLeaving] = useState(false);

  /**
   * Leaves the console first (signing out inside it would send the user to /auth), and only
   * then ends the local session: the server's sessions went with the account.
   */
  async function leave() {
    await navigate("/", { replace: true });
    await logout();
  }

  const deleter = useSettingsChange((result) => {
    if (!result.ok) return setErrors(result.fieldErrors);
    setLeaving(true);
    void leave();
  });
  const busy = deleter.busy || leaving;

  function close() {
    if (busy) return;
    setPassword("");
    setErrors({});
    onClose();
  }

  function confirm(event: React.FormEvent) {
    event.preventDefault();
    const checked = validate(accountDeletionInput, { password });
    if (checked.errors) return setErrors(checked.errors);
    void deleter.submit({ intent: "account.delete", values: checked.data });
  }

  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">
            ¿Eliminar tu cuenta?
          </DialogTitle>
          <Description className="mt-2 text-sm text-slate-600">
            Escribe tu contraseña para confirmarlo. Esta acción no se puede deshacer.
          </Description>
          <SecretForm onSubmit={confirm} noValidate className="mt-4 space-y-4">
            <Field
              label="Contraseña"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              error={errors.password}
              onChange={(e) => setPassword(e.target.value)}
              autoFocus
            />
            <DialogActions
              submitLabel="Eliminar mi cuenta"
              busyLabel="Eliminando..."
              busy={busy}
              danger
              onCancel={close}
            />
          </SecretForm>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
