import { describe, expect, it } from 'vitest';
import { isValidRepoSlug } from '../../../src/attribution/repo-slug.js';

/** `github.com/o/` followed by `char` repeated, padded with ASCII to exactly `bytes` UTF-8 bytes. */
function slugOfBytes(bytes: number, char: string): string {
  const prefix = 'github.com/o/';
  const width = Buffer.byteLength(char, 'utf8');
  const rest = bytes - Buffer.byteLength(prefix, 'utf8');
  const slug = prefix + char.repeat(Math.floor(rest / width)) + 'a'.repeat(rest % width);
  expect(Buffer.byteLength(slug, 'utf8')).toBe(bytes);
  return slug;
}

describe('isValidRepoSlug', () => {
  it.each([
    'github.com/acme/widgets',
    'gitlab.com/group/subgroup/repo',
    'gitlab.example.com/a/b/c/d/e',
    'git.example.com:8443/acme/widgets',
    'localhost/acme/widgets',
    'GitHub.com/Acme/Widgets',
    'github.com/acme/widgets.github',
    'github.com/acme/r..x',
    'github.com/acme/.dotfiles',
    'github.com/ac-me/wid_gets.js',
    'github.com/acme/wîdgets',
  ])('accepts %j', (slug) => {
    expect(isValidRepoSlug(slug)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a scheme', 'https://github.com/acme/widgets'],
    ['an ssh scheme', 'ssh://git@github.com/acme/widgets'],
    ['scp-like credentials', 'git@github.com:acme/widgets'],
    ['user and password', 'user:secret@github.com/acme/widgets'],
    ['an @ in a segment', 'github.com/acme/wid@gets'],
    ['a leading slash', '/github.com/acme/widgets'],
    ['a final .git', 'github.com/acme/widgets.git'],
    ['a final .GIT', 'github.com/acme/widgets.GIT'],
    ['two segments', 'github.com/acme'],
    ['one segment', 'github.com'],
    ['no host', 'acme/widgets'],
    ['a host without a dot', 'github/acme/widgets'],
    ['a host starting with a dash', '-github.com/acme/widgets'],
    ['a bad port', 'github.com:https/acme/widgets'],
    ['a .. segment', 'github.com/../widgets'],
    ['a final .. segment', 'github.com/acme/..'],
    ['a . segment', 'github.com/./widgets'],
    ['an empty segment', 'github.com//widgets'],
    ['a trailing slash', 'github.com/acme/widgets/'],
    ['a space', 'github.com/acme/my widgets'],
    ['a trailing space', 'github.com/acme/widgets '],
    ['a tab', 'github.com/acme/wid\tgets'],
    ['a newline', 'github.com/acme/widgets\n'],
    ['a no-break space', 'github.com/acme/wid\u00a0gets'],
    ['an ideographic space', 'github.com/acme/wid\u3000gets'],
    ['NUL', 'github.com/acme/wid\u0000gets'],
    ['ESC', 'github.com/acme/\u001b[31mwidgets'],
    ['DEL', 'github.com/acme/widgets\u007f'],
    ['the C1 control NEL', 'github.com/acme/wid\u0085gets'],
    ['the C1 control CSI', 'github.com/acme/\u009b31mwidgets'],
    ['a query', 'github.com/acme/widgets?x=1'],
    ['a fragment', 'github.com/acme/widgets#main'],
    ['a percent escape', 'github.com/acme/wid%2Fgets'],
    ['a backslash', 'github.com/acme\\evil/widgets'],
    ['a colon in a segment', 'github.com/acme/wid:gets'],
  ])('rejects %s', (_, slug) => {
    expect(isValidRepoSlug(slug)).toBe(false);
  });

  describe('the 200-byte limit counts UTF-8 bytes, not characters', () => {
    it.each([
      ['1-byte', 'a'],
      ['2-byte', '\u00e9'],
      ['3-byte', '\u6f22'],
      ['4-byte', '\u{1f600}'],
    ])('%s characters: 199 and 200 bytes pass, 201 bytes fail', (_, char) => {
      expect(isValidRepoSlug(slugOfBytes(199, char))).toBe(true);
      expect(isValidRepoSlug(slugOfBytes(200, char))).toBe(true);
      expect(isValidRepoSlug(slugOfBytes(201, char))).toBe(false);
    });

    it('rejects 201 bytes even when they are far fewer than 200 characters', () => {
      const slug = slugOfBytes(201, '\u{1f600}');
      expect([...slug].length).toBeLessThanOrEqual(60);
      expect(isValidRepoSlug(slug)).toBe(false);
    });

    it('counts bytes exactly at a multibyte boundary: one 4-byte character more tips it over', () => {
      const base = 'github.com/o/' + '\u{1f600}'.repeat(46); // 13 + 184 = 197 bytes
      expect(isValidRepoSlug(base + 'abc')).toBe(true); // 200
      expect(isValidRepoSlug(base + '\u{1f600}')).toBe(false); // 201
    });
  });

  it('gives a slug seen before the verdict it gave it first, across more distinct slugs than it remembers', () => {
    // Verdicts are remembered in a bounded table that starts over when full; a wrong key or a stale entry would show here.
    const slugs = Array.from({ length: 2500 }, (_, i) => (i % 3 === 0 ? `github.com/acme/r${i}.git` : i % 3 === 1 ? `github.com/acme/r${i}` : `https://x/${i}/y`));
    for (let pass = 0; pass < 3; pass++) for (const [i, slug] of slugs.entries()) expect(isValidRepoSlug(slug), slug).toBe(i % 3 === 1);
  });
});
