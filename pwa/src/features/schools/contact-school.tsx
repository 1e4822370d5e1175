/**
 * "Contact your school": an e-mail to the chosen school's office (its contact address from
 * GET /api/schools/{slug}); before a school is chosen, the help page's answer on whom to ask.
 */
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { CONTACT_MSG } from '@contract/help-messages';
import { paths } from '../../lib/paths';
import { schoolBySlugQuery } from './api';

export function ContactSchoolLink({ slug }: { slug: string }) {
  const school = useQuery({ ...schoolBySlugQuery(slug), enabled: slug !== '' });
  const email = slug !== '' ? school.data?.contactEmail : undefined;
  if (email && school.data) {
    return <a href={`mailto:${email}?subject=${encodeURIComponent(CONTACT_MSG.contactSubject(school.data.name))}`}>{CONTACT_MSG.contactSchool}</a>;
  }
  return <Link to={`${paths.help}#contact`}>{CONTACT_MSG.contactSchool}</Link>;
}
