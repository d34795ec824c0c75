import { Dialog, DialogActions, useDialog } from './Dialog';
import { useAction } from './useAsync';

/**
 * "Revoke <name>", confirmed in a dialog first: revoking cannot be undone, and whatever uses the
 * secret stops working at once.
 */
export function RevokeButton({ name, what, revoke }: { name: string; what: string; revoke: () => Promise<unknown> }) {
  const dialog = useDialog();
  const action = useAction();
  return (
    <>
      <button type="button" onClick={dialog.open}>
        Revoke {name}
      </button>
      <Dialog control={dialog} title={`Revoke ${name}?`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(revoke).then((done) => done && dialog.close({ restoreFocus: false }));
          }}
        >
          <p>
            Every request made with the {what} <strong>{name}</strong> is refused from now on. Revoking cannot be undone: a new {what} would
            have a new secret.
          </p>
          <DialogActions control={dialog} disabled={action.busy} problem={action.problem}>
            Revoke
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
