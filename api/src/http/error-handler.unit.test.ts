import { describe, expect, it } from 'vitest';
import { loggedPath } from './error-handler';

describe('paths in the server log', () => {
  it("keep a digital copy's download token and a flyer code out, and other paths as they are", () => {
    expect(loggedPath('/api/downloads/eyJhbGciOi.secret.sig')).toBe('/api/downloads/{token}');
    expect(loggedPath('/code/ABCD-2345')).toBe('/code/{code}');
    expect(loggedPath('/s/Ab3_x-9QzK1w')).toBe('/s/{token}');
    expect(loggedPath('/api/orders/K7Q2M9XD3P')).toBe('/api/orders/K7Q2M9XD3P');
  });
});
