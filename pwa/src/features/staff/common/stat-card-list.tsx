import type { ReactNode } from 'react';
import { Card, CardBody } from '../../../components/ui/card';

/** A row of labelled figures: the dashboard's stat cards and the order page's summary. */
export function StatCardList({ cards, label, className }: { cards: { label: string; value: ReactNode }[]; label: string; className: string }) {
  return (
    <ul className={className} aria-label={label}>
      {cards.map((card) => (
        <li key={card.label}>
          <Card>
            <CardBody>
              <p className="stat-label">{card.label}</p>
              <p className="stat-value">{card.value}</p>
            </CardBody>
          </Card>
        </li>
      ))}
    </ul>
  );
}
