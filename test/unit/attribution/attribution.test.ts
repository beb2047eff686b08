import { describe, expect, it } from 'vitest';
import { readAttribution } from '../../../src/attribution/attribution.js';
import { companySettings } from '../support/records.js';

const ON = companySettings({ repositoryAttribution: true, endUserRecording: true });
const OFF = companySettings({ repositoryAttribution: false, endUserRecording: false });
const REPO = 'github.com/acme/widgets';

describe('readAttribution', () => {
  it('records nothing when no attribution header is sent', () => {
    expect(readAttribution({ 'user-agent': 'x' }, ON)).toEqual({});
  });

  it('records the repository only when repository attribution is on', () => {
    expect(readAttribution({ 'x-gw-repo': REPO }, ON)).toEqual({ repo: REPO });
    expect(readAttribution({ 'x-gw-repo': REPO }, OFF)).toEqual({});
    expect(readAttribution({ 'x-gw-repo': REPO }, companySettings({ repositoryAttribution: true }))).toEqual({ repo: REPO });
  });

  it('does not record an invalid repository and warns instead', () => {
    for (const bad of ['https://github.com/acme/widgets', 'github.com/acme/widgets.git', '', 'github.com/acme']) {
      const out = readAttribution({ 'x-gw-repo': bad }, ON);
      expect(out.repo).toBeUndefined();
      expect(out.warning).toMatch(/^x-gw-repo ignored/);
    }
  });

  it('records the application whatever the settings say', () => {
    expect(readAttribution({ 'x-gw-application': 'billing-bot' }, OFF)).toEqual({ application: 'billing-bot' });
    expect(readAttribution({ 'x-gw-application': 'gw-agent' }, ON)).toEqual({ application: 'gw-agent' });
  });

  it('records the end user only when end-user recording is on, and drops it silently otherwise', () => {
    expect(readAttribution({ 'x-gw-end-user': 'customer-42' }, ON)).toEqual({ endUser: 'customer-42' });
    expect(readAttribution({ 'x-gw-end-user': 'customer-42' }, OFF)).toEqual({});
    expect(readAttribution({ 'x-gw-end-user': 'customer-42' }, companySettings({ endUserRecording: true }))).toEqual({ endUser: 'customer-42' });
  });

  it('keeps the settings independent of each other', () => {
    const headers = { 'x-gw-repo': REPO, 'x-gw-application': 'app', 'x-gw-end-user': 'u' };
    expect(readAttribution(headers, companySettings({ repositoryAttribution: true }))).toEqual({ repo: REPO, application: 'app' });
    expect(readAttribution(headers, companySettings({ endUserRecording: true }))).toEqual({ application: 'app', endUser: 'u' });
    expect(readAttribution(headers, ON)).toEqual({ repo: REPO, application: 'app', endUser: 'u' });
  });

  it('trims labels and ignores blank ones', () => {
    expect(readAttribution({ 'x-gw-application': '  app  ', 'x-gw-end-user': '\tu ' }, ON)).toEqual({ application: 'app', endUser: 'u' });
    expect(readAttribution({ 'x-gw-application': '   ', 'x-gw-end-user': '' }, ON)).toEqual({});
  });

  it('keeps the first 200 UTF-8 bytes of a longer application or end-user label, cut at a character, with a warning', () => {
    const fits = '\u00e9'.repeat(100);
    const over = '\u00e9'.repeat(100) + 'x';
    expect(readAttribution({ 'x-gw-application': fits, 'x-gw-end-user': fits }, ON)).toEqual({ application: fits, endUser: fits });
    expect(readAttribution({ 'x-gw-application': over, 'x-gw-end-user': over }, ON)).toEqual({
      application: fits,
      endUser: fits,
      warning: 'x-gw-application truncated to its first 200 UTF-8 bytes; x-gw-end-user truncated to its first 200 UTF-8 bytes',
    });
    // A two-byte character that would straddle the limit is left out whole.
    expect(readAttribution({ 'x-gw-application': 'a' + '\u00e9'.repeat(100) }, ON).application).toBe('a' + '\u00e9'.repeat(99));
  });

  it('drops an over-long end-user label without a trace when end-user recording is off', () => {
    expect(readAttribution({ 'x-gw-end-user': 'u'.repeat(300) }, { ...ON, endUserRecording: false })).toEqual({});
  });
});
