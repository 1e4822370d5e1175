/**
 * The school password form (on the home page, and on /school/{slug} without access). Idle,
 * verifying, then granted (toast + navigate) or denied (toast, stay).
 */
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicSchool } from '@contract/schools';
import { FIRST_VISIT_MSG } from '@contract/first-visit-messages';
import { PWA_MSG } from '@contract/pwa-messages';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Label } from '../../components/ui/label';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast';
import { ApiError, errorMessage } from '../../lib/api-client';
import { isGivenPassword } from '../../lib/form';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { schoolKeys, verifySchoolPassword } from './api';
import { ContactSchoolLink } from './contact-school';

export interface SchoolPasswordFormProps {
  /** The dropdown's schools (home). */
  schools?: PublicSchool[];
  /** A fixed school (the gallery's locked state): no dropdown. */
  school?: PublicSchool;
  schoolsLoading?: boolean;
  /** Where a granted visitor goes; the gallery route for the chosen slug. */
  targetPath: (slug: string) => string;
}

export function SchoolPasswordForm({ schools = [], school, schoolsLoading = false, targetPath }: SchoolPasswordFormProps) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // On the home page: checked with isGivenPassword, not useZodForm, so zod stays out of the first visit.
  const [slug, setSlug] = useState(school?.slug ?? '');
  const [password, setPassword] = useState('');
  // Set when the chosen school turned out to use student codes; cleared when another is chosen.
  const [usesCodes, setUsesCodes] = useState(false);

  const verify = useMutation({
    mutationFn: () => verifySchoolPassword(slug, password),
    onSuccess: async (result) => {
      toast({ title: PWA_MSG.accessGrantedTitle, description: PWA_MSG.welcomeToSchool(result.school.name), variant: 'success' });
      setPassword('');
      await refreshAfterGrantChange(queryClient);
      navigate(targetPath(slug));
    },
    onError: async (err) => {
      // A school whose families use their child's code says so (403 STUDENT_CODES_ONLY): the
      // password is not even checked there (docs/access.md, "Access modes"). A rate-limited attempt
      // says so (429); every other failure says the same fixed text.
      if (err instanceof ApiError && err.code === 'STUDENT_CODES_ONLY') {
        setUsesCodes(true);
        toast({ title: PWA_MSG.accessDeniedTitle, description: FIRST_VISIT_MSG.schoolUsesCodes, variant: 'destructive' });
        // The gallery page of this school then shows the code form, even from a stale cached answer.
        await queryClient.invalidateQueries({ queryKey: schoolKeys.bySlug(slug) });
        return;
      }
      const description = err instanceof ApiError && err.status === 429 ? errorMessage(err, FIRST_VISIT_MSG.invalidSchoolPassword) : FIRST_VISIT_MSG.invalidSchoolPassword;
      toast({ title: PWA_MSG.accessDeniedTitle, description, variant: 'destructive' });
    },
  });

  const canSubmit = slug !== '' && isGivenPassword(password) && !verify.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (canSubmit) verify.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      {school ? null : (
        <div className="field">
          <Label htmlFor={`${id}-school`}>School</Label>
          <Select id={`${id}-school`} value={slug} onChange={(event) => {
              setSlug(event.target.value);
              setUsesCodes(false);
            }} disabled={schoolsLoading}>
            <option value="">{schoolsLoading ? 'Loading schools...' : 'Choose your school...'}</option>
            {schools.map((item) => (
              <option key={item.id} value={item.slug}>
                {item.name}
              </option>
            ))}
          </Select>
        </div>
      )}
      <Field id={`${id}-password`} label="School Password" type="password" autoComplete="off" placeholder="Enter school password" value={password} onChange={(event) => setPassword(event.target.value)} />
      {usesCodes ? (
        <p className="alert alert-info" role="alert">
          {FIRST_VISIT_MSG.schoolUsesCodes}
        </p>
      ) : null}
      <Button type="submit" block size="lg" disabled={!canSubmit}>
        {verify.isPending ? 'Verifying...' : 'Access Photo Gallery'}
      </Button>
      <p className="muted center" style={{ marginTop: 'var(--space-3)', marginBottom: 0 }}>
        Don't have the password? <ContactSchoolLink slug={slug} />
      </p>
    </form>
  );
}
