import { useEffect, useState } from 'react';
import { api, onRateLimited, onSessionEnded, setCsrfToken, type ApiError, type Schemas } from '../api/client';
import { ErrorMessage } from '../ui/ErrorMessage';
import { RateLimitShownAbove } from '../ui/rate-limit-notice';
import { AccountScreen } from '../screens/account/AccountScreen';
import { AccountsScreen } from '../screens/accounts/AccountsScreen';
import { InsightsScreen } from '../screens/insights/InsightsScreen';
import { SegmentsScreen } from '../screens/segments/SegmentsScreen';
import { TokensScreen } from '../screens/tokens/TokensScreen';
import { WebhooksScreen } from '../screens/webhooks/WebhooksScreen';
import { AuditScreen } from '../screens/audit/AuditScreen';
import { FlagScreen } from '../screens/flags/FlagScreen';
import { FlagsScreen } from '../screens/flags/FlagsScreen';
import { ProjectScreen } from '../screens/projects/ProjectScreen';
import { ProjectsScreen } from '../screens/projects/ProjectsScreen';
import { SignInScreen } from '../screens/sign-in/SignInScreen';
import { Link, match, navigate, useLocation } from './router';
import { SessionContext } from './session';
import { focusMainHeading, SkipLink, useFocusOnNavigation } from './navigation-focus';

/** Routes by screen: each pattern names the screen that answers it. */
function Screen({ path }: { path: string }) {
  let params: Record<string, string> | undefined;
  if ((params = match('/projects/:project/flags/:flag', path)))
    return <FlagScreen project={params.project as string} flag={params.flag as string} />;
  if ((params = match('/projects/:project/flags', path))) return <FlagsScreen project={params.project as string} />;
  if ((params = match('/projects/:project/segments', path))) return <SegmentsScreen project={params.project as string} />;
  if ((params = match('/projects/:project/insights', path))) return <InsightsScreen project={params.project as string} />;
  if ((params = match('/projects/:project/webhooks', path))) return <WebhooksScreen project={params.project as string} />;
  if (match('/tokens', path)) return <TokensScreen />;
  if (match('/accounts', path)) return <AccountsScreen />;
  if ((params = match('/projects/:project', path))) return <ProjectScreen project={params.project as string} />;
  if (match('/audit', path)) return <AuditScreen />;
  if (match('/account', path)) return <AccountScreen />;
  return <ProjectsScreen />;
}

/** Whether `path` is the screen `section` or one below it (`/account` is not `/accounts`). */
const within = (path: string, section: string) => path === section || path.startsWith(`${section}/`);

export function App() {
  const [session, setSession] = useState<Schemas['ConsoleSession'] | null | undefined>(undefined);
  // Why the sign-in screen is shown on a page that was open: the session ended meanwhile.
  const [ended, setEnded] = useState(false);
  const { path } = useLocation();
  useFocusOnNavigation(path);
  // The latest rate limit hit on this screen, said once at its top; another screen starts afresh.
  const [limited, setLimited] = useState<ApiError>();
  useEffect(() => onRateLimited(setLimited), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `path` is the trigger: a new screen starts without the notice
  useEffect(() => setLimited(undefined), [path]);

  // Any request answered 401 ends the console's session here, once: the sign-in screen takes the
  // page's place and, once signed in, the same address shows the same page again.
  useEffect(
    () =>
      onSessionEnded(() => {
        setCsrfToken(undefined);
        setSession((current) => {
          if (current) setEnded(true);
          return current === undefined ? current : null;
        });
      }),
    [],
  );

  useEffect(() => {
    api.GET('/session').then(
      ({ data }) => {
        setCsrfToken(data?.data.csrf_token);
        setSession(data?.data ?? null);
      },
      () => setSession(null),
    );
  }, []);

  const signOut = async () => {
    await api.DELETE('/session');
    setCsrfToken(undefined);
    setSession(null);
    navigate('/');
  };

  if (session === undefined) return <p className="loading">Loading…</p>;
  // A temporary password's session may only choose the account's own password: the sign-in screen's last step.
  if (session === null || session.password_change_required) {
    return (
      <SignInScreen
        restricted={session ?? undefined}
        ended={ended}
        onSignedIn={(signedIn) => {
          setCsrfToken(signedIn.csrf_token);
          setEnded(false);
          setSession(signedIn);
        }}
        onSignOut={() => void signOut()}
      />
    );
  }

  return (
    <SessionContext.Provider value={{ session, signOut }}>
      <SkipLink />
      <header className="top">
        <Link to="/projects" className="brand">
          Vexil
        </Link>
        <nav aria-label="Main">
          <Link to="/projects" aria-current={path === '/' || within(path, '/projects') ? 'page' : undefined}>
            Projects
          </Link>
          {session.account.role !== 'member' ? (
            <>
              <Link to="/audit" aria-current={within(path, '/audit') ? 'page' : undefined}>
                Audit log
              </Link>
              <Link to="/tokens" aria-current={within(path, '/tokens') ? 'page' : undefined}>
                Tokens
              </Link>
              <Link to="/accounts" aria-current={within(path, '/accounts') ? 'page' : undefined}>
                Accounts
              </Link>
            </>
          ) : null}
          <a href="/docs">API reference</a>
          <Link to="/account" aria-current={within(path, '/account') ? 'page' : undefined}>
            {session.account.email}
          </Link>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </nav>
      </header>
      {/* The skip link's target: the focus it gets passes on to the page's heading, which names the page. */}
      <main id="main" tabIndex={-1} onFocus={(event) => event.target === event.currentTarget && focusMainHeading()}>
        <ErrorMessage problem={limited} />
        <RateLimitShownAbove.Provider value={true}>
          <Screen path={path} />
        </RateLimitShownAbove.Provider>
      </main>
    </SessionContext.Provider>
  );
}
