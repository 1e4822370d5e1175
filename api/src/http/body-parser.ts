import { koaBody, HttpMethodEnum } from 'koa-body';

/**
 * JSON and urlencoded bodies (multipart is read per route with its own limits). The raw text is
 * kept (ctx.request.rawBody) because PayWeb3 checksums depend on the posted field order.
 */
export function bodyParser() {
  return koaBody({
    json: true,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonLimit: '1mb',
    formLimit: '256kb',
    includeUnparsed: true,
    jsonStrict: true,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
}
