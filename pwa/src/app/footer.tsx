import { Link } from 'react-router-dom';
import { businessName } from '../lib/brand';
import { paths } from '../lib/paths';

const COLUMNS = [
  {
    title: 'For Parents',
    links: [
      { label: 'How it works', to: paths.howItWorks },
      { label: 'Ordering help', to: `${paths.help}#ordering` },
      { label: 'Delivery to school', to: `${paths.help}#delivery` },
      { label: 'Digital copies', to: `${paths.help}#digital-copies` },
    ],
  },
  {
    title: 'Access and Codes',
    links: [
      { label: 'Passwords and student codes', to: `${paths.help}#access` },
      { label: 'Closing dates', to: `${paths.help}#closing-dates` },
      { label: 'Staff sign in', to: paths.staffDashboard },
    ],
  },
  {
    title: 'Support',
    links: [
      { label: 'Contact your school', to: `${paths.help}#contact` },
      { label: 'Help and FAQ', to: paths.help },
      { label: 'Privacy', to: paths.privacy },
    ],
  },
];

/** The footer's columns: every link is a page of the app (help sections by their id). */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="grid grid-3">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2>{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.label}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        {/* Prerendered at build time: the year may have turned since. */}
        <p className="copyright" suppressHydrationWarning>
          © {new Date().getFullYear()} {businessName()}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
