import { thebeToDecimal } from '../../../contract/money';
import { escapeHtml } from '../../lib/escape';
import { APPROVED_TEST_CARD, RESULT_CODES, TEST_CARD_OUTCOMES, TEST_CARDS, TRANSACTION_STATUS, transactionOutcome } from './codes';
import { SANDBOX_WALLETS, type SandboxPayMethod } from './sandbox-outcome';

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
input,select{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #8a939c;border-radius:.375rem;background:#fff}
input:focus,select:focus,button:focus{outline:3px solid #1d4ed8;outline-offset:2px}
.hint{color:#4b5563;font-size:.9rem;margin:.25rem 0 0}
fieldset{border:0;margin:0;padding:0}legend{font-weight:600;margin-bottom:.5rem}
.methods{display:grid;gap:.75rem}.methods button{width:100%;text-align:left}
.methods small{display:block;font-weight:400}
.other{margin-top:1rem}
.reference{font:700 1.25rem/1.3 ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
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

/**
 * The sandbox's own tab icon (a card on the sandbox's blue), inline so it needs no file or route
 * and is never the shop's: the browser otherwise asks for /favicon.ico and gets a 404.
 */
const ICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='6' fill='#1d4ed8'/><rect x='5' y='9' width='22' height='15' rx='2' fill='#fff'/><rect x='5' y='12' width='22' height='3' fill='#1d4ed8'/></svg>";
export const SANDBOX_ICON_HREF = `data:image/svg+xml,${encodeURIComponent(ICON_SVG)}`;

function page(title: string, body: string, hint = 'Use the test cards below.'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/svg+xml" href="${SANDBOX_ICON_HREF}">
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="banner" role="note"><strong>Test payment gateway (sandbox).</strong> No real money moves and no card is charged. ${escapeHtml(hint)}</p>
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

/** The request the page is for: the two fields every sandbox form posts back. */
export interface RequestFormInput {
  payRequestId: string;
  checksum: string;
  reference: string;
  amount: string;
  currency: string;
}

function summary(heading: string, input: RequestFormInput): string {
  return `<section class="card" aria-labelledby="summary-title">
<h1 id="summary-title">${escapeHtml(heading)}</h1>
<dl>
<dt>Amount</dt><dd>${escapeHtml(formatAmount(input.currency, input.amount))}</dd>
<dt>Reference</dt><dd>${escapeHtml(input.reference)}</dd>
</dl>
</section>`;
}

function requestFields(input: RequestFormInput): string {
  return `<input type="hidden" name="PAY_REQUEST_ID" value="${escapeHtml(input.payRequestId)}">
<input type="hidden" name="CHECKSUM" value="${escapeHtml(input.checksum)}">`;
}

/** A second form under a method's page, back to the choice (only when the parent chose the method here). */
function otherMethodForm(input: RequestFormInput): string {
  return `<form method="post" action="/payweb3/process.trans" class="other">
${requestFields(input)}
<button type="submit" class="secondary" name="PAY_METHOD" value="">Choose another way to pay</button>
</form>`;
}

const METHOD_CHOICES: Readonly<Record<SandboxPayMethod, { label: string; detail: string }>> = {
  CC: { label: 'Card', detail: 'Visa, MasterCard, American Express or Diners Club' },
  EW: { label: 'Mobile money (e-wallet)', detail: `${SANDBOX_WALLETS.join(', ')}: confirm on your phone` },
  BT: { label: 'Bank transfer', detail: 'Instant EFT from your bank (SiD); confirmed when the bank reports it' },
};

/** process.trans without a PAY_METHOD when the account carries several: one button per method, card first. */
export function methodChoicePage(input: RequestFormInput & { methods: readonly SandboxPayMethod[] }): string {
  const buttons = input.methods
    .map((method) => {
      const { label, detail } = METHOD_CHOICES[method];
      return `<button type="submit" class="secondary" name="PAY_METHOD" value="${method}">${escapeHtml(label)}<small>${escapeHtml(detail)}</small></button>`;
    })
    .join('\n');
  return page(
    'Choose how to pay (test gateway)',
    `${summary('Choose how to pay', input)}
<section class="card">
<form method="post" action="/payweb3/process.trans">
${requestFields(input)}
<fieldset>
<legend>Payment method</legend>
<div class="methods">
${buttons}
</div>
</fieldset>
<div class="actions">
<button type="submit" class="secondary" name="ACTION" value="cancel" formaction="/payweb3/pay.trans">Cancel</button>
</div>
</form>
</section>`,
    'Choose a method to see its test page.',
  );
}

export interface WalletPageInput extends RequestFormInput {
  /** The wallet the initiate named (PAY_METHOD_DETAIL); null offers the sandbox's wallets. */
  fixedWallet: string | null;
  wallet?: string;
  mobileNumber?: string;
  error?: string;
  /** SANDBOX_EWALLET_DELAY_MS: > 0 answers "received" first and the phone's answer this much later. */
  delayMs: number;
  canChooseOther: boolean;
}

export function walletPage(input: WalletPageInput): string {
  const error = input.error ? `<p class="error" role="alert" id="form-error">${escapeHtml(input.error)}</p>` : '';
  const describedBy = input.error ? 'mobile-hint form-error' : 'mobile-hint';
  const walletField = input.fixedWallet
    ? `<dl><dt>Wallet</dt><dd>${escapeHtml(input.fixedWallet)}</dd></dl>`
    : `<label for="wallet">Wallet</label>
<select id="wallet" name="WALLET">
${SANDBOX_WALLETS.map((wallet) => `<option value="${escapeHtml(wallet)}"${wallet === (input.wallet ?? SANDBOX_WALLETS[0]) ? ' selected' : ''}>${escapeHtml(wallet)}</option>`).join('\n')}
</select>`;
  const timing =
    input.delayMs > 0
      ? `The shop first hears that the payment was received (status 5, pending); your answer reaches it ${formatDelay(input.delayMs)} later.`
      : 'Your answer reaches the shop at once, like a card payment.';
  return page(
    'Pay with mobile money (test gateway)',
    `${summary('Mobile money payment', input)}
<section class="card" aria-labelledby="wallet-title">
<h2 id="wallet-title">Your mobile wallet</h2>
${error}
<form method="post" action="/payweb3/ewallet.trans">
${requestFields(input)}
${walletField}
<label for="mobile-number">Mobile number</label>
<input id="mobile-number" name="MOBILE_NUMBER" type="tel" inputmode="tel" autocomplete="tel" required value="${escapeHtml(input.mobileNumber ?? '71 234 567')}" aria-describedby="${describedBy}"${input.error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="mobile-hint">A Botswana mobile number: 8 digits starting with 7, for example 71 234 567 (+267 may be added).</p>
<p>A real wallet now asks the phone to confirm the payment. Here you answer for the phone:</p>
<div class="actions">
<button type="submit" class="primary" name="ACTION" value="approve">Approve on the phone</button>
<button type="submit" class="secondary" name="ACTION" value="decline">Decline on the phone</button>
<button type="submit" class="secondary" name="ACTION" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
${input.canChooseOther ? otherMethodForm(input) : ''}
</section>
<section class="card">
<h2>What happens next</h2>
<p>${escapeHtml(timing)} Approve gives status 1 (Auth Done), Decline status 2 (Declined); both carry AUTH_CODE 999999. Cancel ends the payment as cancelled by the customer.</p>
</section>`,
    'Any Botswana mobile number works; no phone is contacted.',
  );
}

/** The bank account the sandbox's transfers pretend to pay into. */
export const SANDBOX_BANK = { bank: 'Sandbox Bank Botswana', accountName: 'PayGate Test Merchant', accountNumber: '1000 2000 3000', branchCode: '290267' } as const;

export interface TransferPageInput extends RequestFormInput {
  finalNotify: 'approve' | 'decline' | 'none';
  finalNotifyMs: number;
  canChooseOther: boolean;
}

export function transferPage(input: TransferPageInput): string {
  const later =
    input.finalNotify === 'none'
      ? 'The bank never confirms it by itself here (SANDBOX_FINAL_NOTIFY=none): it stays pending until settled through POST /payweb3/sandbox/settle.'
      : `The bank's ${input.finalNotify === 'approve' ? 'confirmation (status 1, approved)' : 'refusal (status 2, declined)'} reaches the shop ${formatDelay(input.finalNotifyMs)} later.`;
  return page(
    'Pay by bank transfer (test gateway)',
    `${summary('Bank transfer', input)}
<section class="card" aria-labelledby="transfer-title">
<h2 id="transfer-title">Transfer the amount to</h2>
<dl>
<dt>Bank</dt><dd>${SANDBOX_BANK.bank}</dd>
<dt>Account name</dt><dd>${SANDBOX_BANK.accountName}</dd>
<dt>Account number</dt><dd>${SANDBOX_BANK.accountNumber}</dd>
<dt>Branch code</dt><dd>${SANDBOX_BANK.branchCode}</dd>
<dt>Amount</dt><dd>${escapeHtml(formatAmount(input.currency, input.amount))}</dd>
<dt>Reference</dt><dd class="reference">${escapeHtml(input.reference)}</dd>
</dl>
<p>Use exactly this reference, so the payment can be matched to the order.</p>
<form method="post" action="/payweb3/transfer.trans">
${requestFields(input)}
<div class="actions">
<button type="submit" class="primary" name="ACTION" value="paid">I have made the transfer</button>
<button type="submit" class="secondary" name="ACTION" value="cancel">Cancel</button>
</div>
</form>
${input.canChooseOther ? otherMethodForm(input) : ''}
</section>
<section class="card">
<h2>What happens next</h2>
<p>The shop first hears that the payment was received (status 5, pending). ${escapeHtml(later)} Every notify carries PAY_METHOD BT, PAY_METHOD_DETAIL SID and AUTH_CODE 999999.</p>
</section>`,
    'No bank account is debited.',
  );
}

/** "5 seconds", "1.5 seconds", "250 ms", "2 minutes". */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) {
    const seconds = Math.round(ms / 100) / 10;
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.round(ms / 6000) / 10;
  return `${minutes} minutes`;
}

const ERROR_TEXT: Readonly<Record<string, string>> = {
  DATA_CHK: 'The payment request checksum is not valid.',
  DATA_PAY_REQ_ID: 'The payment request id is missing.',
  ND_INV_PRID: 'This payment request does not exist.',
  TXN_CMP: 'This payment has already been completed.',
  TXN_CAN: 'This payment has already been cancelled.',
  TXN_PRC: 'This payment request has expired (older than 30 minutes). Please start the payment again from the shop.',
  DATA_PM: 'This payment method is not available for this payment.',
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
          : outcome === 'received'
            ? 'Payment received, awaiting confirmation'
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
