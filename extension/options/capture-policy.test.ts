import { describe, expect, it } from 'vitest';
import { allowsActions, allowsCapture, DEFAULT_POLICY, parsePolicy, parseSites, siteListed } from './capture-policy.js';

describe('capture policy', () => {
  it('defaults to capturing always; malformed stored values fall back to it', () => {
    expect(DEFAULT_POLICY.mode).toBe('always');
    expect(parsePolicy(undefined)).toEqual(DEFAULT_POLICY);
    expect(parsePolicy({ mode: 'sometimes', sites: 7 })).toEqual(DEFAULT_POLICY);
    expect(parsePolicy({ mode: 'sites', sites: ['Example.com', 42, 'https://b.test:8080/x?y'] })).toEqual({
      mode: 'sites',
      sites: ['example.com', 'b.test:8080'],
    });
  });

  it('reads a list of sites from text: one per line or comma, URLs reduced to their host, junk left out', () => {
    expect(parseSites('a.test\n *.b.test, localhost:8080  https://c.test/path\n<script>\na.test')).toEqual([
      'a.test',
      '*.b.test',
      'localhost:8080',
      'c.test',
    ]);
  });

  it('matches hosts, subdomains for *. patterns, and host:port', () => {
    const sites = ['a.test', '*.b.test', 'localhost:8080'];
    expect(siteListed(sites, 'https://a.test/x')).toBe(true);
    expect(siteListed(sites, 'https://www.a.test/')).toBe(false);
    expect(siteListed(sites, 'https://b.test/')).toBe(true);
    expect(siteListed(sites, 'https://x.y.b.test/')).toBe(true);
    expect(siteListed(sites, 'https://evilb.test/')).toBe(false);
    expect(siteListed(sites, 'http://localhost:8080/')).toBe(true);
    expect(siteListed(sites, 'http://localhost:9090/')).toBe(false);
    expect(siteListed(sites, 'about:blank')).toBe(false);
    expect(siteListed(sites, 'not a url')).toBe(false);
  });

  it('decides per mode', () => {
    expect(allowsCapture({ mode: 'always', sites: [] }, { url: 'https://x.test/', devtoolsOpen: false })).toBe(true);
    expect(allowsCapture({ mode: 'devtools', sites: [] }, { url: 'https://x.test/', devtoolsOpen: false })).toBe(false);
    expect(allowsCapture({ mode: 'devtools', sites: [] }, { url: 'https://x.test/', devtoolsOpen: true })).toBe(true);
    expect(allowsCapture({ mode: 'sites', sites: ['x.test'] }, { url: 'https://x.test/', devtoolsOpen: true })).toBe(
      true,
    );
    expect(allowsCapture({ mode: 'sites', sites: ['x.test'] }, { url: 'https://y.test/', devtoolsOpen: true })).toBe(
      false,
    );
  });

  it('lets the panel act on the page unless the options turned it off', () => {
    expect(allowsActions(DEFAULT_POLICY)).toBe(true);
    expect(allowsActions(parsePolicy({ mode: 'always', sites: [], actions: true }))).toBe(true);
    expect(allowsActions(parsePolicy({ mode: 'always', sites: [], actions: 'no' }))).toBe(true);
    expect(allowsActions(parsePolicy({ mode: 'always', sites: [], actions: false }))).toBe(false);
  });
});
