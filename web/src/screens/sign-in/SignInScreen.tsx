import { useState, type FormEvent } from 'react';
import { api, setCsrfToken, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { PasswordField } from '../../ui/PasswordField';
import { useAction } from '../../ui/useAsync';
import { ChoosePassword } from './ChoosePassword';

/**
 * Signing in, and the step a temporary password leads to: choosing one's own. `restricted` is a
 * session the console found already signed in with a temporary password (after a reload).
 */
export function SignInScreen({
  restricted,
  ended = false,
  onSignedIn,
  onSignOut,
}: {
  restricted?: Schemas['ConsoleSession'];
  /** The session ended while a page was open: signing in again returns to it. */
  ended?: boolean;
  onSignedIn: (session: Schemas['ConsoleSession']) => void;
  onSignOut: () => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [temporary, setTemporary] = useState<Schemas['ConsoleSession'] | undefined>();
  const action = useAction();
  const signedIn = (session: Schemas['ConsoleSession']) => {
    setCsrfToken(session.csrf_token);
    if (session.password_change_required) setTemporary(session);
    else onSignedIn(session);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => signedIn((await unwrap(api.POST('/session', { body: { email, password } }))).data));
  };
  const pending = temporary ?? restricted;
  if (pending) {
    return (
      <ChoosePassword
        session={pending}
        temporaryPassword={temporary ? password : undefined}
        onSignedIn={signedIn}
        onSignOut={() => {
          setTemporary(undefined);
          setPassword('');
          onSignOut();
        }}
      />
    );
  }
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Vexil</h1>
      {ended ? (
        <p role="status" className="notice">
          Your session has ended. Sign in again to return to the page you were on.
        </p>
      ) : null}
      <form onSubmit={submit}>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          problem={action.problem}
        />
        <PasswordField label="Password" name="password" purpose="current" value={password} onValue={setPassword} problem={action.problem} />
        <ErrorMessage problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
      <p>
        First start prints the owner's temporary password; an owner or admin gives you yours. <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
