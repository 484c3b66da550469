import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { LoginInput, Me, RegisterInput, Role, User } from "../../contracts/auth";
import type { Organization } from "../../contracts/organizations";
import { ApiError, client, data, setUnauthorizedHandler, tokenStore } from "./api";
import { toastFailed } from "./outcome";
import { realtime } from "./realtime";

type Status = "loading" | "anonymous" | "authenticated";

interface AuthState {
  status: Status;
  user: User | null;
  organization: Organization | null;
  role: Role | null;
  /** The member's own availability for round robin (the header's switch). */
  available: boolean | null;
}

interface AuthContextValue extends AuthState {
  login(input: LoginInput): Promise<void>;
  register(input: RegisterInput): Promise<void>;
  logout(): Promise<void>;
  /** Reloads user and organization from the server (after onboarding or an edit). */
  reload(): Promise<void>;
  /** Says once that the server ended a signed-in session (a revoked socket, a 401). */
  tellSessionEnded(message: string): void;
  setUser(user: User): void;
  setOrganization(organization: Organization): void;
  setAvailable(available: boolean): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const readMe = (): Promise<Me> => data(client.auth.me.$get());

/** The page's first read of the session, started before hydration (app/entry.client.tsx). */
let firstSessionRead: Promise<Me> | null = null;

export function startSessionRead() {
  if (!tokenStore.get()) return;
  firstSessionRead = readMe();
  firstSessionRead.catch(() => {}); // Its failure is handled where it is awaited.
}

/** The session read started early, once; every later read asks the server again. */
function readSession() {
  const started = firstSessionRead;
  firstSessionRead = null;
  return started ?? readMe();
}

/** The server did not answer the session's read (time-out, network, 5xx): worth trying again. */
const unanswered = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

/** 1 s, 2 s, 4 s... then every 10 s. */
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 10_000);

const SIGNED_OUT: AuthState = {
  status: "anonymous",
  user: null,
  organization: null,
  role: null,
  available: null,
};

/** Session state of the console: a token in localStorage and the user it belongs to. */
export function AuthProvider({ children }: { children: React.ReactNode }) {
  const [state, setState] = useState<AuthState>({ ...SIGNED_OUT, status: "loading" });

  const signOutLocally = useCallback(() => {
    tokenStore.clear();
    setState(SIGNED_OUT);
  }, []);

  // Whether a signed-in console has been told its session ended: a revoked socket and the 401s
  // of the requests in flight end it together, and it is said once, by whichever comes first.
  const signedIn = useRef(false);
  const told = useRef(false);
  useEffect(() => {
    signedIn.current = state.status === "authenticated";
    if (signedIn.current) told.current = false;
  }, [state.status]);
  const tellSessionEnded = useCallback((message: string) => {
    // A token found stale on a first load is not news: the sign-in page is.
    if (!signedIn.current || told.current) return;
    told.current = true;
    toastFailed(message);
  }, []);

  const reload = useCallback(async () => {
    if (!tokenStore.get()) return setState(SIGNED_OUT);
    for (let attempt = 0; ; attempt++) {
      try {
        const me = await readSession();
        return setState({ status: "authenticated", ...me });
      } catch (error) {
        // Only the server's refusal ends the session. A time-out, an unreachable or a failing
        // server keeps it (the token included) and the read is tried again, a little later
        // each time: a slow moment must not sign anyone out.
        if (!unanswered(error)) return signOutLocally();
        await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
      }
    }
  }, [signOutLocally]);

  useEffect(() => {
    // A 401 ends the local session; the console layout then sends the user to /auth,
    // while public pages (legal, connection popups) stay where they are.
    setUnauthorizedHandler((message) => {
      tellSessionEnded(message);
      signOutLocally();
    });
    void reload();
    return () => setUnauthorizedHandler(null);
  }, [reload, signOutLocally, tellSessionEnded]);

  const authenticate = useCallback(
    async (signIn: () => Promise<{ token: string }>) => {
      try {
        const result = await signIn();
        tokenStore.set(result.token);
        await reload();
      } catch (error) {
        signOutLocally();
        throw error;
      }
    },
    [reload, signOutLocally],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      // Sign-in and sign-out write outside a route's action (decision 0105): they make and end
      // the session every route's data is read with, from any screen (the auth page, the
      // sidebar, a revoked socket), and the session lives here, not in a route.
      login: (input) => authenticate(() => data(client.auth.login.$post({ json: input }))),
      register: (input) => authenticate(() => data(client.auth.register.$post({ json: input }))),
      logout: async () => {
        // Leaving on purpose: the server ending this session (its socket, a read refused on the
        // way out) is not news to tell.
        told.current = true;
        realtime.stop();
        // The local session ends even when the server cannot be reached.
        await data(client.auth.logout.$post()).catch(() => undefined);
        signOutLocally();
      },
      reload,
      tellSessionEnded,
      setUser: (user) => setState((s) => ({ ...s, user })),
      setOrganization: (organization) => setState((s) => ({ ...s, organization })),
      setAvailable: (available) => setState((s) => ({ ...s, available })),
    }),
    [state, authenticate, reload, signOutLocally, tellSessionEnded],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}
