import { NavLink, useLocation } from "react-router";
import { AvailabilitySwitch } from "~/components/team/availability-switch";
import { useRealtimeStatus } from "~/lib/realtime";
import { Icon } from "~/components/ui/icon";

export const NAV_ITEMS = [
  { to: "/dashboard", label: "Dashboard", icon: "M3 12l9-9 9 9M5 10v10h14V10" },
  { to: "/conversations", label: "Conversaciones", icon: "M4 5h16v11H8l-4 4z" },
  {
    to: "/conversations?assignee_id=me",
    label: "Mis conversaciones",
    icon: "M12 3a4 4 0 110 8 4 4 0 010-8zM5 21l3-6h8l3 6",
  },
  {
    to: "/mentions",
    label: "Menciones",
    icon: "M16 12a4 4 0 10-1.2 2.8M16 8v5a2 2 0 004 0v-1a8 8 0 10-3 6.2",
  },
  {
    to: "/broadcasts",
    label: "Difusiones",
    icon: "M3 10v4h3l6 4V6L6 10zM16 9a4 4 0 010 6M19 6a8 8 0 010 12",
  },
  {
    to: "/follow-ups",
    label: "Seguimientos",
    icon: "M12 7v5l3 2M20 12a8 8 0 11-2.3-5.7M20 3v4h-4",
  },
  {
    to: "/agenda",
    label: "Agenda",
    icon: "M4 6h16v14H4zM4 10h16M8 3v4M16 3v4",
  },
  { to: "/agents", label: "Agentes", icon: "M12 3a4 4 0 110 8 4 4 0 010-8zM4 21a8 8 0 0116 0" },
  { to: "/tracking", label: "Analytics", icon: "M4 20V10M10 20V4M16 20v-7M22 20H2" },
  {
    to: "/settings",
    label: "Configuración",
    icon: "M12 8a4 4 0 100 8 4 4 0 000-8zM3 12h2M19 12h2M12 3v2M12 19v2",
  },
] as const;

/**
 * An item is active when the path is it, or lies under it; of the two inbox items, "Mis
 * conversaciones" while the list shows only the member's, "Conversaciones" otherwise.
 */
export function isNavItemActive(pathname: string, search: string, to: string) {
  const [path = to, query] = to.split("?");
  const onPath = pathname === path || pathname.startsWith(`${path}/`);
  if (path !== "/conversations") return onPath;
  const mine = new URLSearchParams(search).get("assignee_id") === "me";
  return onPath && (query ? mine : !mine);
}

interface SidebarProps {
  organizationName: string;
  userName: string;
  onLogout: () => void;
  onNavigate?: () => void;
}

export function Sidebar({ organizationName, userName, onLogout, onNavigate }: SidebarProps) {
  const { pathname, search } = useLocation();
  const status = useRealtimeStatus();
  const connected = status === "connected";
  return (
    <div className="flex h-full flex-col bg-slate-900 text-slate-100">
      <div className="border-b border-slate-800 px-5 py-5">
        <p className="text-xs uppercase tracking-wide text-emerald-400">Atiende</p>
        <p className="mt-1 truncate text-lg font-semibold" title={organizationName}>
          {organizationName}
        </p>
        <span
          className={`mt-2 inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ${
            connected ? "bg-emerald-500/15 text-emerald-300" : "bg-slate-700 text-slate-300"
          }`}
          aria-live="polite"
        >
          <span
            aria-hidden
            className={`h-2 w-2 rounded-full ${connected ? "bg-emerald-400" : "bg-slate-400"}`}
          />
          {connected ? "Tiempo Real" : "Desconectado"}
        </span>
      </div>
      <nav aria-label="Principal" className="flex-1 space-y-1 px-3 py-4">
        {NAV_ITEMS.map((item) => {
          const active = isNavItemActive(pathname, search, item.to);
          return (
            <NavLink
              key={item.to}
              to={item.to}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
                active ? "bg-emerald-700 text-white" : "text-slate-300 hover:bg-slate-800"
              }`}
            >
              <Icon path={item.icon} strokeWidth={1.8} />
              {item.label}
            </NavLink>
          );
        })}
      </nav>
      <div className="border-t border-slate-800 px-5 py-4">
        <p className="truncate text-sm font-medium" title={userName}>
          {userName}
        </p>
        <AvailabilitySwitch />
        <button
          type="button"
          onClick={onLogout}
          className="mt-2 text-sm text-slate-400 hover:text-white"
        >
          Cerrar sesión
        </button>
      </div>
    </div>
  );
}
