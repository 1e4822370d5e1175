import { photographerCreateSchema, type StaffUser } from '@contract/auth';
import { PWA_MSG } from '@contract/messages';
import { STAFF_MSG } from '@contract/staff-screen-messages';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardBody } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { PageSpinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/form';
import { useCreatePhotographer, useDeletePhotographer, usePhotographers, useRevokeSessions } from '../api/photographers';
import { useConfirmDelete } from '../use-confirm-delete';

const EMPTY = { email: '', password: '', firstName: '', lastName: '', role: 'photographer' };

function AddPhotographer() {
  const { values, errors, set, handleSubmit, reset } = useZodForm(photographerCreateSchema, EMPTY);
  const create = useCreatePhotographer();

  const submit = handleSubmit((data) =>
    create.mutate(data, {
      onSuccess: (user) => {
        toast({ title: STAFF_MSG.photographerCreatedTitle, description: STAFF_MSG.canSignIn(`${user.firstName} ${user.lastName}`), variant: 'success' });
        reset();
      },
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.createPhotographerFailed), variant: 'destructive' }),
    }),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Add photographer" className="stack">
      <h3>Add photographer</h3>
      <div className="grid grid-2">
        <Field id="new-first-name" label="First name" value={values.firstName} onChange={set('firstName')} error={errors.firstName} />
        <Field id="new-last-name" label="Last name" value={values.lastName} onChange={set('lastName')} error={errors.lastName} />
        <Field id="new-email" label="Email" type="email" autoComplete="off" value={values.email} onChange={set('email')} error={errors.email} />
        <Field id="new-password" label="Password" type="password" autoComplete="new-password" value={values.password} onChange={set('password')} error={errors.password} />
        <div className="field">
          <Label htmlFor="new-role">Role</Label>
          <Select id="new-role" value={values.role} onChange={set('role')}>
            <option value="photographer">Photographer</option>
            <option value="admin">Administrator</option>
          </Select>
        </div>
      </div>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Adding...' : 'Add Photographer'}
      </Button>
    </form>
  );
}

export function PhotographersTab({ isAdmin, currentUserId }: { isAdmin: boolean; currentUserId: number | null }) {
  const staff = usePhotographers(isAdmin);
  const remove = useDeletePhotographer();
  const revoke = useRevokeSessions();
  const signOut = (user: StaffUser) =>
    revoke.mutate(user.id, {
      onSuccess: (answer) => toast({ title: STAFF_MSG.signedOutEverywhereTitle, description: answer.message, variant: 'success' }),
      onError: (err) => toast({ title: PWA_MSG.errorTitle, description: errorMessage(err, STAFF_MSG.signOutFailed), variant: 'destructive' }),
    });
  const deletion = useConfirmDelete<StaffUser, unknown>(remove, {
    title: STAFF_MSG.deleteAccountQuestion,
    description: (user) => STAFF_MSG.deleteAccountWarning(user?.firstName ?? '', user?.lastName ?? ''),
    confirmLabel: STAFF_MSG.deleteAccount,
    deletedTitle: STAFF_MSG.photographerDeletedTitle,
    deleted: (user) => STAFF_MSG.cannotSignIn(`${user.firstName} ${user.lastName}`),
    failed: (err) => errorMessage(err, STAFF_MSG.deletePhotographerFailed),
  });

  if (!isAdmin) {
    return <p className="alert alert-info">Only administrators can manage photographer accounts. Ask an administrator to add or remove accounts.</p>;
  }

  return (
    <div className="stack">
      <Card>
        <CardBody>
          <AddPhotographer />
        </CardBody>
      </Card>
      <Card>
        <CardBody className="stack">
          <h2>Photographers</h2>
          {staff.isPending ? <PageSpinner label="Loading accounts..." /> : null}
          <ul className="staff-list">
            {staff.data?.map((user) => (
              <li key={user.id} className="row between">
                <div>
                  <strong>
                    {user.firstName} {user.lastName}
                  </strong>
                  <div className="muted">{user.email}</div>
                </div>
                <div className="row">
                  <Badge tone={user.role === 'admin' ? 'indigo' : 'neutral'}>{user.role === 'admin' ? 'Administrator' : 'Photographer'}</Badge>
                  {user.id !== currentUserId ? (
                    <>
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={revoke.isPending}
                        onClick={() => signOut(user)}
                        aria-label={STAFF_MSG.signOutEverywhereLabel(`${user.firstName} ${user.lastName}`)}
                      >
                        {STAFF_MSG.signOutEverywhere}
                      </Button>
                      <Button variant="destructive" size="sm" onClick={() => deletion.ask(user)} aria-label={`Delete ${user.firstName} ${user.lastName}`}>
                        Delete
                      </Button>
                    </>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </CardBody>
      </Card>
      {deletion.dialog}
    </div>
  );
}
