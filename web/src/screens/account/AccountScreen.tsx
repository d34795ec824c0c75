import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { useSession } from '../../app/session';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PasswordField } from '../../ui/PasswordField';
import { useAction } from '../../ui/useAsync';

export function AccountScreen() {
  const { session, signOut } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(api.PUT('/session/password', { body: { current_password: current, new_password: next } }));
      // Every session of the account ended with the change: sign in again.
      await signOut();
    });
  };
  return (
    <section>
      <h1>Account</h1>
      <p>
        {session.account.name} ({session.account.email}), {session.account.role}
      </p>
      <h2>Change password</h2>
      <form onSubmit={submit}>
        <PasswordField
          label="Current password"
          name="current_password"
          purpose="current"
          value={current}
          onValue={setCurrent}
          problem={action.problem}
        />
        <PasswordField
          label="New password (at least 12 characters)"
          name="new_password"
          purpose="new"
          value={next}
          onValue={setNext}
          problem={action.problem}
        />
        <ErrorMessage problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Change password
        </button>
      </form>
    </section>
  );
}
