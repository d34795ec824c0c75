import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';

export function SignInScreen({ onSignedIn }: { onSignedIn: (session: Schemas['ConsoleSession']) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => onSignedIn((await unwrap(api.POST('/session', { body: { email, password } }))).data));
  };
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Vexil</h1>
      <form onSubmit={submit}>
        <Field label="Email" name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} problem={action.problem} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} problem={action.problem} />
        <ErrorMessage problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
      <p>
        First start prints the owner's one-time password. <a href="/docs">API reference</a>
      </p>
    </main>
  );
}
