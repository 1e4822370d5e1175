import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('card', className)} {...props} />;
}
export function CardHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('card-header', className)} {...props} />;
}
export function CardBody({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('card-body', className)} {...props} />;
}

/** A page of one narrow card: what a link from an e-mail opens (reset, unsubscribe, cart restore). */
export function NarrowCardPage({ children }: { children: ReactNode }) {
  return (
    <div className="container page page-narrow">
      <Card>
        <CardBody>{children}</CardBody>
      </Card>
    </div>
  );
}
