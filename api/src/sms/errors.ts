import { isTransientStatus, statusName } from './smpp-protocol';

/** The SMS centre answered a submit_sm with an error: it did not take the message (docs/sms.md, "Sending"). */
export class SmsRefusedError extends Error {
  readonly status: number;
  /** False for throttling, a full queue and other refusals worth another try later. */
  readonly permanent: boolean;
  constructor(status: number) {
    super(`the SMS centre refused the message: ${statusName(status)}`);
    this.name = 'SmsRefusedError';
    this.status = status;
    this.permanent = !isTransientStatus(status);
  }
}

/** No bind to the SMS centre (it is down, or refuses the account): nothing was submitted. */
export class SmsCentreUnavailableError extends Error {
  constructor(reason: string) {
    super(`the SMS centre is not available: ${reason}`);
    this.name = 'SmsCentreUnavailableError';
  }
}
