import { businessName } from '../lib/brand';

const COLUMNS = [
  { title: 'For Schools', links: ['Partner with us', 'Photo day planning', 'School accounts'] },
  { title: 'For Parents', links: ['Ordering help', 'Delivery to school', 'Digital copies'] },
  { title: 'Support', links: ['Contact us', 'FAQ', 'Privacy'] },
];

/** The footer's columns; their pages do not exist yet, so the links go nowhere. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="grid grid-3">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2>{column.title}</h2>
              <ul>
                {column.links.map((label) => (
                  <li key={label}>
                    <a href="#footer" onClick={(event) => event.preventDefault()}>
                      {label}
                    </a>
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
