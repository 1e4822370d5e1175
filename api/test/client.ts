export interface JsonResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small HTTP client for tests: JSON in and out, bearer token, cookie jar. */
export class Client {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    public token: string | null = null,
  ) {}

  withToken(token: string | null): Client {
    const client = new Client(this.baseUrl, token);
    return client;
  }

  async request<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { ...headers }, redirect: 'manual' };
    if (this.token) init.headers.Authorization = `Bearer ${this.token}`;
    if (this.cookies.size) init.headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body instanceof FormData) init.body = body;
    else if (typeof body === 'string') {
      init.body = body;
      init.headers['Content-Type'] ??= 'application/json';
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(this.baseUrl + url, init);
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('application/json') ? await res.json() : type.startsWith('text/') ? await res.text() : Buffer.from(await res.arrayBuffer());
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>('GET', url, undefined, headers);
  }
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', url, body, headers);
  }
  put<T = any>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body);
  }
  patch<T = any>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body);
  }
  delete<T = any>(url: string, body?: unknown) {
    return this.request<T>('DELETE', url, body);
  }
  clearCookies() {
    this.cookies.clear();
  }
  /** The same browser (one cookie jar, one token) reaching another process of the deployment. */
  via(baseUrl: string): Client {
    const client = new Client(baseUrl, this.token);
    client.cookies = this.cookies;
    return client;
  }
}
