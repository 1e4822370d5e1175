import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { CURRENCY } from '@contract/constants';
import type { PaymentMethod } from '@contract/payment-methods';
import { buttonClass } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { useTitle } from '../../lib/use-title';
import { useHydrated } from '../../lib/use-hydrated';
import { payByPhrase, paymentMethodsQuery } from '../../lib/payment-methods';
import { paths } from '../../lib/paths';

/** One payment provider, named the same everywhere on the page. */
const PROVIDER = 'PayGate';

/**
 * The payment methods are named in one place, from the server's list of enabled ones
 * (`GET /api/payment/methods`, docs/payments.md "Choosing a method"): the step and the payment
 * note say the same. Until that list is known (the build's prerender, the first paint before
 * hydration, a first visit offline) neither names a method.
 */
const steps = (payBy: string) => [
  { title: 'Select your school', text: 'Choose your child’s school from the list on the home page.' },
  { title: 'Enter the school password', text: 'Type the password your school shared with parents to open its gallery.' },
  { title: 'Select a class', text: 'Pick your child’s class. Some classes have their own password for extra privacy.' },
  { title: 'Make your selection and add to cart', text: 'Open a photo, tick the products you want, choose quantities from 1 to 10 and add them to your cart.' },
  { title: 'Secure payment', text: `Check out with your contact details and pay ${payBy ? `${payBy} ` : ''}on ${PROVIDER}’s secure payment page.` },
  { title: 'Delivery to school', text: 'Prints are delivered to the school for collection. Digital copies can be downloaded as soon as payment is confirmed.' },
];

const info = (payBy: string, methods: readonly Pick<PaymentMethod, 'id'>[]) => [
  { title: 'Password Access', text: 'Photos of children are private. Each school has a password, and a class can have its own. Ask your school if you do not have it.' },
  {
    title: 'Payment & Currency',
    text: `Prices are in Botswana Pula (${CURRENCY}) and shown like P25.00. You pay on ${PROVIDER}’s secure page${payBy ? ` ${payBy}` : ''}${methods.some((method) => method.id === 'card') ? '; we never see your card number' : ''}.`,
  },
  { title: 'Delivery Process', text: 'Orders are delivered to the school, not to your home. The school lets you know when prints are ready to collect.' },
  { title: 'Photo Quality', text: 'The gallery shows watermarked previews. Prints and digital copies are made from the full-resolution originals without the watermark.' },
];

export default function HowItWorks() {
  useTitle('How It Works');
  const methodsQuery = useQuery(paymentMethodsQuery());
  // Prerendered: the methods are filled in once the page is hydrated, never during.
  const hydrated = useHydrated();
  const methods = (hydrated ? methodsQuery.data : undefined) ?? [];
  const payBy = payByPhrase(methods);
  const stepList = steps(payBy);
  const infoList = info(payBy, methods);
  return (
    <div className="container page">
      <h1>How It Works</h1>
      <p className="muted">Ordering your child’s school photos takes six simple steps.</p>
      <ol className="steps grid-2 grid-3">
        {stepList.map((step, index) => (
          <li key={step.title}>
            <Card style={{ height: '100%' }}>
              <CardBody>
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h2 className="h3">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h2>
                <p className="muted">{step.text}</p>
              </CardBody>
            </Card>
          </li>
        ))}
      </ol>
      <section aria-labelledby="important-title" style={{ marginTop: 'var(--space-8)' }}>
        <h2 id="important-title">Important Information</h2>
        <div className="grid grid-2">
          {infoList.map((item) => (
            <Card key={item.title}>
              <CardBody>
                <h3>{item.title}</h3>
                <p className="muted">{item.text}</p>
              </CardBody>
            </Card>
          ))}
        </div>
      </section>
      <div className="center" style={{ marginTop: 'var(--space-8)' }}>
        <h2>Ready to see your photos?</h2>
        <Link to={paths.home} className={buttonClass('primary', 'btn-lg')}>
          Find Your School
        </Link>
      </div>
    </div>
  );
}
