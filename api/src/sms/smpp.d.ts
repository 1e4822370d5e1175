/**
 * The part of the `smpp` package (SMPP 3.4/5.0 client and server, no types of its own) this
 * project uses (docs/sms.md, "Sending").
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A PDU: its header fields, and its body's parameters and TLVs by their SMPP names. */
  export class PDU {
    constructor(command: string, options?: Record<string, unknown>);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [param: string]: unknown;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
  }

  export class Session extends EventEmitter {
    socket: Socket;
    server?: Server;
    /** False when the socket is not writable (the PDU was not written). */
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    bind_transmitter(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    submit_sm(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    deliver_sm(options: Record<string, unknown>, responseCallback?: (pdu: PDU) => void): boolean;
    enquire_link(options?: Record<string, unknown> | ((pdu: PDU) => void), responseCallback?: (pdu: PDU) => void): boolean;
    unbind(options?: Record<string, unknown> | ((pdu: PDU) => void), responseCallback?: (pdu: PDU) => void): boolean;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  export interface ConnectOptions {
    url?: string;
    host?: string;
    port?: number;
    tls?: boolean;
    /** Sends enquire_link this often (ms); the project keeps its own timer instead. */
    auto_enquire_link_period?: number;
    connectTimeout?: number;
    [option: string]: unknown;
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session;
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
  export function createServer(listener?: (session: Session) => void): Server;
  /** Registers a TLV (tag name, numeric id and type) so PDUs carry and read it. */
  export function addTLV(tag: string, options: { id: number; type: unknown }): void;

  export const types: { tlv: { cstring: unknown; int8: unknown; int16: unknown; int32: unknown; string: unknown; buffer: unknown } };
  export const consts: {
    ESM_CLASS: { MC_DELIVERY_RECEIPT: number };
    MESSAGE_STATE: Record<'SCHEDULED' | 'ENROUTE' | 'DELIVERED' | 'EXPIRED' | 'DELETED' | 'UNDELIVERABLE' | 'ACCEPTED' | 'UNKNOWN' | 'REJECTED' | 'SKIPPED', number>;
  };
  export const errors: Record<string, number>;
  export const ESME_ROK: number;
  export const ESME_RINVMSGLEN: number;
  export const ESME_RSYSERR: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RINVPASWD: number;
  export const ESME_RINVSYSID: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RINVDSTADR: number;
  export const ESME_RSUBMITFAIL: number;
  export const ESME_RX_T_APPN: number;
}
