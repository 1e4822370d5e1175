/**
 * /code/{CODE}: where a flyer's QR code lands. The code is checked at once; the child is kept on
 * this device and the parent goes straight to their photos. A wrong or expired code leaves the
 * form, prefilled, to correct it.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { formatStudentCode, isStudentCode, normaliseStudentCode } from '@contract/student-codes';
import { PWA_MSG } from '@contract/messages';
import { Card, CardBody } from '../../components/ui/card';
import { PageSpinner } from '../../components/ui/spinner';
import { toast } from '../../components/ui/toast';
import { verifyStudentCode } from '../../features/children/api';
import { CODE_FORMAT_HINT, StudentCodeForm } from '../../features/children/code-form';
import { errorMessage } from '../../lib/api-client';
import { refreshAfterGrantChange } from '../../lib/query-client';
import { addUnlockedChild } from '../../lib/unlocked-children';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

export default function CodeLanding() {
  useTitle('Student code');
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const normalised = normaliseStudentCode(code);
  const [error, setError] = useState<string | null>(isStudentCode(normalised) ? null : CODE_FORMAT_HINT);
  const started = useRef(false);

  useEffect(() => {
    // Strict mode runs effects twice in development; a code is checked once.
    if (started.current || !isStudentCode(normalised)) return;
    started.current = true;
    verifyStudentCode(normalised)
      .then(async (result) => {
        addUnlockedChild(result);
        toast({ title: PWA_MSG.accessGrantedTitle, description: PWA_MSG.childPhotosReady(result.student.name), variant: 'success' });
        await refreshAfterGrantChange(queryClient);
        navigate(paths.child(result.student.id), { replace: true });
      })
      .catch((err: unknown) => setError(errorMessage(err, "We couldn't check that code. Please try again.")));
  }, [normalised, navigate, queryClient]);

  if (!error) {
    return (
      <div className="container page">
        <PageSpinner label="Opening your child's photos..." />
      </div>
    );
  }

  return (
    <div className="container page page-narrow">
      <Card>
        <CardBody>
          <h1>Enter your child's code</h1>
          <p className="alert alert-danger" role="alert">
            {error}
          </p>
          <StudentCodeForm initialCode={formatStudentCode(code)} onUnlocked={(result) => navigate(paths.child(result.student.id), { replace: true })} />
          <p className="muted center" style={{ marginTop: 'var(--space-3)', marginBottom: 0 }}>
            Your school uses a password instead? <Link to={paths.home}>Choose your school</Link>
          </p>
        </CardBody>
      </Card>
    </div>
  );
}
