import { thebeToDecimal } from '../../../contract/money';
import { escapeHtml } from '../../lib/escape';
import { APPROVED_TEST_CARD, RESULT_CODES, TEST_CARD_OUTCOMES, TEST_CARDS, TRANSACTION_STATUS, transactionOutcome } from './codes';

export { escapeHtml };

/** Inline CSS only: the app's CSP allows inline styles but no external assets or inline scripts. */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f5f7}
main{max-width:34rem;margin:0 auto;padding:1rem}
.banner{background:#fff4d6;border:2px solid #b7791f;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.card{background:#fff;border-radius:.5rem;padding:1rem 1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);margin-bottom:1rem}
h1{font-size:1.4rem;margin:.25rem 0 .75rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8a939c;border-radius:.375rem}
input:focus,button:focus{outline:3px solid #1d4ed8;outline-offset:2px}
.row{display:flex;gap:1rem}.row>div{flex:1}
.actions{display:flex;gap:.75rem;margin-top:1.25rem;flex-wrap:wrap}
button{font:inherit;font-weight:600;padding:.7rem 1.4rem;border-radius:.375rem;border:2px solid #1d4ed8;cursor:pointer;min-width:8rem}
.primary{background:#1d4ed8;color:#fff}.secondary{background:#fff;color:#1d4ed8}
.error{background:#fde8e8;border:2px solid #b91c1c;border-radius:.375rem;padding:.5rem .75rem;color:#7f1d1d}
table{width:100%;border-collapse:collapse;font-size:.9rem}
caption{text-align:left;font-weight:600;padding-bottom:.5rem}
th,td{text-align:left;padding:.35rem .4rem;border-bottom:1px solid #d7dce1;vertical-align:top}
td.num{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="banner" role="note"><strong>Test payment gateway (sandbox).</strong> No real money moves and no card is charged. Use the test cards below.</p>
${body}
</main>
</body>
</html>`;
}

export function formatAmount(currency: string, amount: string): string {
  return `${currency} ${thebeToDecimal(Number(amount))}`;
}

export interface PaymentPageInput {
  payRequestId: string;
  checksum: string;
  reference: string;
  amount: string;
  currency: string;
  now: Date;
  error?: string;
  cardNumber?: string;
  expiry?: string;
}

export function paymentPage(input: PaymentPageInput): string {
  const expiryDefault = `12/${String((input.now.getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
  const error = input.error ? `<p class="error" role="alert" id="form-error">${escapeHtml(input.error)}</p>` : '';
  const describedBy = input.error ? ' aria-describedby="form-error"' : '';
  const rows = TEST_CARDS.map((card) => {
    const { label, resultCode, status } = TEST_CARD_OUTCOMES[card.outcome];
    return `<tr><td>${escapeHtml(card.brand)}</td><td class="num">${card.number}</td><td>${label}</td><td>${resultCode} / ${status}</td></tr>`;
  }).join('\n');
  return page(
    'Pay with card (test gateway)',
    `<section class="card" aria-labelledby="summary-title">
<h1 id="summary-title">Card payment</h1>
<dl>
<dt>Amount</dt><dd>${escapeHtml(formatAmount(input.currency, input.amount))}</dd>
<dt>Reference</dt><dd>${escapeHtml(input.reference)}</dd>
</dl>
</section>
<section class="card" aria-labelledby="card-title">
<h2 id="card-title">Card details</h2>
${error}
<form method="post" action="/payweb3/pay.trans">
<input type="hidden" name="PAY_REQUEST_ID" value="${escapeHtml(input.payRequestId)}">
<input type="hidden" name="CHECKSUM" value="${escapeHtml(input.checksum)}">
<label for="card-number">Card number</label>
<input id="card-number" name="CARD_NUMBER" inputmode="numeric" autocomplete="off" required value="${escapeHtml(input.cardNumber ?? APPROVED_TEST_CARD)}"${describedBy}>
<div class="row">
<div><label for="expiry">Expiry (MM/YY)</label>
<input id="expiry" name="EXPIRY" inputmode="numeric" autocomplete="off" required placeholder="MM/YY" value="${escapeHtml(input.expiry ?? expiryDefault)}"></div>
<div><label for="cvv">CVV</label>
<input id="cvv" name="CVV" inputmode="numeric" autocomplete="off" required maxlength="4" value="123"></div>
</div>
<div class="actions">
<button type="submit" class="primary" name="ACTION" value="pay">Pay</button>
<button type="submit" class="secondary" name="ACTION" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
</section>
<section class="card">
<table>
<caption>Test cards and their outcomes</caption>
<thead><tr><th scope="col">Card</th><th scope="col">Number</th><th scope="col">Outcome</th><th scope="col">Result code / status</th></tr></thead>
<tbody>
${rows}
<tr><td>Any</td><td>Any other number</td><td>Invalid card</td><td>${RESULT_CODES.invalidCardNumber} / ${TRANSACTION_STATUS.declined}</td></tr>
</tbody>
</table>
<p>Any future expiry date and any CVV work. Cancel ends the payment as cancelled by the customer.</p>
</section>`,
  );
}

const ERROR_TEXT: Readonly<Record<string, string>> = {
  DATA_CHK: 'The payment request checksum is not valid.',
  DATA_PAY_REQ_ID: 'The payment request id is missing.',
  ND_INV_PRID: 'This payment request does not exist.',
  TXN_CMP: 'This payment has already been completed.',
  TXN_CAN: 'This payment has already been cancelled.',
  TXN_PRC: 'This payment request has expired (older than 30 minutes). Please start the payment again from the shop.',
};

export function errorPage(code: string): string {
  return page(
    'Payment request error (test gateway)',
    `<section class="card" role="alert">
<h1>Payment could not continue</h1>
<p>${escapeHtml(ERROR_TEXT[code] ?? 'The payment request is not valid.')}</p>
<p>Error code: <code>${escapeHtml(code)}</code></p>
</section>`,
  );
}

export interface ReturnPageInput {
  returnUrl: string;
  payRequestId: string;
  transactionStatus: number;
  checksum: string;
}

/**
 * Posts the return fields to RETURN_URL. The button always works; the script (a same-origin file,
 * so a CSP with script-src 'self' and no inline scripts allows it) just presses it.
 */
export function returnPage(input: ReturnPageInput): string {
  const outcome = transactionOutcome(input.transactionStatus);
  const heading =
    outcome === 'approved'
      ? 'Payment approved'
      : outcome === 'cancelled'
        ? 'Payment cancelled'
        : outcome === 'notDone'
          ? 'Payment not processed'
          : 'Payment declined';
  return page(
    heading,
    `<section class="card" aria-live="polite">
<h1>${heading}</h1>
<p>Taking you back to the shop…</p>
<form method="post" action="${escapeHtml(input.returnUrl)}" data-autosubmit>
<input type="hidden" name="PAY_REQUEST_ID" value="${escapeHtml(input.payRequestId)}">
<input type="hidden" name="TRANSACTION_STATUS" value="${input.transactionStatus}">
<input type="hidden" name="CHECKSUM" value="${escapeHtml(input.checksum)}">
<button type="submit" class="primary">Return to the shop</button>
</form>
</section>
<script src="/payweb3/autosubmit.js"></script>`,
  );
}

export const AUTOSUBMIT_SCRIPT = `(function () {
  var form = document.querySelector('form[data-autosubmit]');
  if (form) form.submit();
})();
`;
