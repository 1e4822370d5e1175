import { Link, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Card, CardBody } from '../../components/ui/card';
import { schoolsQuery } from '../../features/schools/api';
import { SchoolPasswordForm } from '../../features/schools/school-password-form';
import { useTitle } from '../../lib/use-title';
import { useUnlockedChildren } from '../../lib/unlocked-children';
import { useHydrated } from '../../lib/use-hydrated';
import { StudentCodeForm } from '../../features/children/code-form';
import { paths } from '../../lib/paths';

const FEATURES = [
  { title: 'Professional Quality', text: 'Portraits and class photos taken by experienced school photographers.', icon: 'M4 7h3l2-3h6l2 3h3v12H4z M12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z' },
  { title: 'Secure Access', text: 'Each school has its own password, so only families can see their photos.', icon: 'M6 11V8a6 6 0 0 1 12 0v3 M5 11h14v10H5z' },
  { title: 'Fast Delivery', text: 'Prints are delivered to your school; digital copies arrive as downloads.', icon: 'M3 7h11v9H3z M14 10h4l3 3v3h-7 M7 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z M17 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z' },
  { title: 'Premium Products', text: 'Prints in several sizes, frames, canvases and digital copies.', icon: 'M12 3l2.7 5.6 6.3.9-4.5 4.4 1 6.1L12 17l-5.5 3 1-6.1L3 9.5l6.3-.9z' },
];

export default function Home() {
  useTitle(null);
  const schools = useQuery(schoolsQuery());
  const navigate = useNavigate();
  const children = useUnlockedChildren();
  // Prerendered: the list is filled in once the page is hydrated, never during.
  const hydrated = useHydrated();

  return (
    <>
      <section className="hero">
        <div className="container hero-grid">
          <div className="hero-copy">
            <h1>Professional School Photography</h1>
            <p>Choose your school, enter the password your school gave you, and order prints or digital copies of your child's photos. Orders are delivered to the school.</p>
            <p>
              <Link to={paths.howItWorks} style={{ color: '#fff' }}>
                How it works
              </Link>
            </p>
          </div>
          <div className="stack">
            <Card>
              <CardBody>
                <h2>Select Your School</h2>
                <SchoolPasswordForm schools={hydrated ? (schools.data ?? []) : []} schoolsLoading={!hydrated || schools.isPending} targetPath={paths.school} />
                {hydrated && schools.isError ? (
                  <p className="field-error" role="alert">
                    We could not load the list of schools. Check your connection and reload the page.
                  </p>
                ) : null}
              </CardBody>
            </Card>
            <Card>
              <CardBody>
                <h2>I have a student code</h2>
                <p className="muted">Your school gave you a flyer with a private code for your child? Enter it here, or scan its QR code with your phone's camera.</p>
                <StudentCodeForm onUnlocked={(result) => navigate(paths.child(result.student.id))} />
                {hydrated && children.length > 0 ? (
                  <p className="center" style={{ marginTop: 'var(--space-3)', marginBottom: 0 }}>
                    <Link to={paths.children}>Open my children's photos ({children.length})</Link>
                  </p>
                ) : null}
              </CardBody>
            </Card>
          </div>
        </div>
      </section>
      <section className="container page" aria-labelledby="features-title">
        <h2 id="features-title" className="sr-only">
          Why parents choose us
        </h2>
        <div className="grid grid-2 grid-4">
          {FEATURES.map((feature) => (
            <Card key={feature.title}>
              <CardBody>
                <div className="feature-icon" aria-hidden="true">
                  <svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
                    <path d={feature.icon} />
                  </svg>
                </div>
                <h3>{feature.title}</h3>
                <p className="muted">{feature.text}</p>
              </CardBody>
            </Card>
          ))}
        </div>
      </section>
    </>
  );
}
