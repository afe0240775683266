import { describe, expect, it } from 'vitest';

import { redactUrl, redactUrlsInText } from '../../src/lib/redact.ts';

describe('redactUrl', () => {
  it('masks the password and keeps the user, host and path', () => {
    expect(redactUrl('postgres://admin:s3cret@db.example:5433/x')).toBe(
      'postgres://admin:***@db.example:5433/x',
    );
    expect(redactUrl('http://admin:s3cret@db.example/x')).toBe('http://admin:***@db.example/x');
  });

  it('masks a password that holds @ or /, and one in a URL that does not parse', () => {
    expect(redactUrl('postgres://u:p@ss/w@rd@db/x')).toBe('postgres://u:***@db/x');
    expect(redactUrl('postgres://u:s3cret@db:notaport/x')).toBe('postgres://u:***@db:notaport/x');
    expect(redactUrl('u:s3cret@db/x')).toBe('u:***@db/x');
  });

  it('masks password parameters, and the whole userinfo when asked', () => {
    expect(redactUrl('postgres://db/x?sslmode=require&password=s3cret')).toBe(
      'postgres://db/x?sslmode=require&password=***',
    );
    expect(redactUrl('https://wlu_s3cret@weblate.example/', { hideUser: true })).toBe(
      'https://***@weblate.example/',
    );
  });

  it('leaves a URL without credentials as it is', () => {
    expect(redactUrl('postgres://admin@db/x')).toBe('postgres://admin@db/x');
    expect(redactUrl('https://weblate.example/api/')).toBe('https://weblate.example/api/');
  });
});

describe('redactUrlsInText', () => {
  it('masks the password of every URL in a line, JSON included', () => {
    const line = JSON.stringify({
      msg: 'x',
      a: 'postgres://u:s3cret@db/x',
      b: 'see http://v:t0ken@h:1/p and postgresql://w:pw@other/y?password=p4ss',
    });
    const redacted = redactUrlsInText(line);
    for (const secret of ['s3cret', 't0ken', ':pw@', 'p4ss'])
      expect(redacted).not.toContain(secret);
    expect(JSON.parse(redacted)).toEqual({
      msg: 'x',
      a: 'postgres://u:***@db/x',
      b: 'see http://v:***@h:1/p and postgresql://w:***@other/y?password=***',
    });
  });
});
