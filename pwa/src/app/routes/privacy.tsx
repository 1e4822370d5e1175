/** The privacy notice (/privacy): what is kept about children and guardians, how long, and erasure. */
import { Link } from 'react-router-dom';
import { CONTACT_MSG, PRIVACY_MSG } from '@contract/messages';
import { businessName } from '../../lib/brand';
import { useTitle } from '../../lib/use-title';
import { paths } from '../../lib/paths';

export default function Privacy() {
  useTitle(PRIVACY_MSG.title);
  return (
    <div className="container page page-medium">
      <h1>{PRIVACY_MSG.title}</h1>
      <p>{PRIVACY_MSG.intro(businessName())}</p>
      {PRIVACY_MSG.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`}>{section.heading}</h2>
          <ul>
            {section.items.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </section>
      ))}
      <p>
        <Link to={`${paths.help}#contact`}>{CONTACT_MSG.contactSchool}</Link>
      </p>
    </div>
  );
}
