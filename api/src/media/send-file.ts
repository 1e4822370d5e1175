/** Files are sent by `sendFile()` in api/src/http/send-file.ts; its ETag check is kept reachable here. */
export { etagMatches } from '../http/send-file';
