/** Help (/help): the questions parents ask, each a section the footer links to by its id. */
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { HELP_MSG } from '@contract/messages';
import { Card, CardBody } from '../../components/ui/card';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

export default function Help() {
  useTitle(HELP_MSG.title);
  // A footer link names its question (/help#delivery): the page opens there.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length <= 1) return;
    // After the layout's own scroll to the top of a new page (its effect runs after this one).
    const frame = requestAnimationFrame(() => document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView());
    return () => cancelAnimationFrame(frame);
  }, [hash]);
  return (
    <div className="container page page-medium">
      <h1>{HELP_MSG.title}</h1>
      <p className="muted">
        {HELP_MSG.intro} <Link to={paths.howItWorks}>How It Works</Link>
      </p>
      <nav aria-label="Questions" className="stack" style={{ marginBottom: 'var(--space-6)' }}>
        <ul>
          {HELP_MSG.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.question}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="stack">
        {HELP_MSG.sections.map((section) => (
          <Card key={section.id}>
            <CardBody>
              <section id={section.id} aria-labelledby={`${section.id}-title`}>
                <h2 id={`${section.id}-title`} className="h3">
                  {section.question}
                </h2>
                {section.answer.map((text) => (
                  <p key={text}>{text}</p>
                ))}
              </section>
            </CardBody>
          </Card>
        ))}
      </div>
      <p style={{ marginTop: 'var(--space-6)' }}>
        <Link to={paths.privacy}>{HELP_MSG.privacyLink}</Link>
      </p>
    </div>
  );
}
