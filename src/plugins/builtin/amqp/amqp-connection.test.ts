// The AMQP client takes credentials from its URL over its options: the node's `username` and
// `password` keys go into the URL, encoded, and a URL alone is left as it is.
import { describe, expect, it } from 'vitest';
import { urlWithCredentials } from './amqp-connection.js';

describe('urlWithCredentials', () => {
  it('puts the keys into the URL, encoded, over what it held', () => {
    expect(
      urlWithCredentials({
        url: 'amqp://old:x@broker:5672/shop',
        username: 'svc',
        password: 'p@ss/:w',
      }),
    ).toBe('amqp://svc:p%40ss%2F%3Aw@broker:5672/shop');
    const url = new URL(urlWithCredentials({ url: 'amqps://broker', password: 'só' }));
    expect(decodeURIComponent(url.password)).toBe('só');
  });

  it('leaves a URL without the keys as it is', () => {
    expect(urlWithCredentials({ url: 'amqp://guest:guest@127.0.0.1:5672' })).toBe(
      'amqp://guest:guest@127.0.0.1:5672',
    );
  });
});
