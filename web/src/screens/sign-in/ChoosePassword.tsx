import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PasswordField } from '../../ui/PasswordField';
import { useAction } from '../../ui/useAsync';

/**
 * A session signed in with a temporary password may only choose the account's own password. The
 * temporary password is asked again unless the sign-in that just used it handed it over.
 */
export function ChoosePassword({
  session,
  temporaryPassword,
  onSignedIn,
  onSignOut,
}: {
  session: Schemas['ConsoleSession'];
  temporaryPassword?: string;
  onSignedIn: (session: Schemas['ConsoleSession']) => void;
  onSignOut: () => void;
}) {
  const [current, setCurrent] = useState(temporaryPassword ?? '');
  const [next, setNext] = useState('');
  const [repeated, setRepeated] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const action = useAction();
  const email = session.account.email;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(next !== repeated);
    if (next !== repeated) return;
    void action.run(async () => {
      await unwrap(api.PUT('/session/password', { body: { current_password: current, new_password: next } }));
      // Every session of the account ended with the change: sign in with the new password.
      onSignedIn((await unwrap(api.POST('/session', { body: { email, password: next } }))).data);
    });
  };
  return (
    <main id="main" className="sign-in">
      <h1>Choose your password</h1>
      <p>
        You signed in as <strong>{email}</strong> with a temporary password. It only lets you choose your own password; nothing else works
        until you do.
      </p>
      <form onSubmit={submit}>
        {temporaryPassword === undefined ? (
          <PasswordField
            label="Temporary password"
            name="current_password"
            purpose="current"
            value={current}
            onValue={setCurrent}
            problem={action.problem}
          />
        ) : null}
        <PasswordField
          label="New password (at least 12 characters)"
          name="new_password"
          purpose="new"
          value={next}
          onValue={setNext}
          problem={action.problem}
        />
        <PasswordField label="New password again" name="new_password_again" purpose="new" value={repeated} onValue={setRepeated} />
        {mismatch ? (
          <div role="alert" className="error">
            The two new passwords differ.
          </div>
        ) : null}
        <ErrorMessage problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Save my password
        </button>{' '}
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </form>
    </main>
  );
}
