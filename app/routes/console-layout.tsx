import { Dialog, DialogPanel } from "@headlessui/react";
import { useEffect, useState } from "react";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { toastDone } from "~/lib/outcome";
import { AiBudgetNotice } from "~/components/ai-budget-notice";
import { OnboardingWizard } from "~/components/onboarding-wizard";
import { Sidebar } from "~/components/sidebar";
import { WhatsappDisconnectedNotice } from "~/components/whatsapp-disconnected-notice";
import { Spinner } from "~/components/ui/spinner";
import { useAuth } from "~/lib/auth";
import { useMessageNotifications } from "~/lib/notifications";
import { useRealtimeConnection } from "~/lib/realtime";
import { useConsoleTracking } from "~/lib/tracking";
import { Icon } from "~/components/ui/icon";

/** Every signed-in screen: the guard, onboarding for users without an organization, the sidebar. */
export default function ConsoleLayout() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const ready = auth.status === "authenticated" && auth.organization !== null;
  // A revoked session (logged out elsewhere, removed, role changed) ends here too.
  useRealtimeConnection(ready, () => {
    auth.tellSessionEnded("Tu sesión se ha cerrado. Por favor, inicia sesión nuevamente.");
    void auth.logout().then(() => navigate("/auth"));
  });
  useMessageNotifications();
  useConsoleTracking(ready);

  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  // On the server the session is always being read: this is what a first load shows.
  if (auth.status === "loading") return <Spinner />;
  if (auth.status === "anonymous" || !auth.user) return <Navigate to="/auth" replace />;
  if (!auth.organization) {
    // Onboarding lives on the dashboard; other screens send the user there first.
    if (pathname !== "/dashboard") return <Navigate to="/dashboard" replace />;
    return <OnboardingWizard />;
  }

  async function logout() {
    await auth.logout();
    toastDone("Sesión cerrada");
    navigate("/auth");
  }

  const sidebar = (onNavigate?: () => void) => (
    <Sidebar
      organizationName={auth.organization!.name}
      userName={auth.user!.full_name}
      onLogout={logout}
      onNavigate={onNavigate}
    />
  );

  return (
    <div className="min-h-screen lg:flex">
      <aside className="hidden w-64 shrink-0 lg:sticky lg:top-0 lg:block lg:h-screen">
        {sidebar()}
      </aside>
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 lg:hidden">
        <span className="truncate font-semibold">{auth.organization.name}</span>
        <button
          type="button"
          onClick={() => setMenuOpen(true)}
          className="rounded-lg p-2 text-slate-700 hover:bg-slate-100"
          aria-label="Abrir menú"
        >
          <Icon path="M4 6h16M4 12h16M4 18h16" className="h-6 w-6" />
        </button>
      </header>
      <Dialog open={menuOpen} onClose={setMenuOpen} className="relative z-40 lg:hidden">
        <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
        <DialogPanel className="fixed inset-y-0 left-0 w-72 max-w-[85vw]">
          <button
            type="button"
            onClick={() => setMenuOpen(false)}
            className="absolute right-3 top-3 z-10 rounded-lg p-1 text-slate-300 hover:bg-slate-800"
            aria-label="Cerrar menú"
          >
            <Icon path="M6 6l12 12M18 6L6 18" />
          </button>
          {sidebar(() => setMenuOpen(false))}
        </DialogPanel>
      </Dialog>
      <main className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        <WhatsappDisconnectedNotice />
        <AiBudgetNotice />
        <Outlet />
      </main>
    </div>
  );
}
