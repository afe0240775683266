/**
 * Hiding credentials that a URL carries, so that a setting can be named in a message
 * without its password.
 */

const MASK = '***';

/** `password=` and `sslpassword=` parameters, which libpq-style URLs accept. */
const PASSWORD_PARAMETER = /([?&](?:ssl)?password=)[^&#]*/gi;
/** The same in a text, where the URL ends at a space or a quote. */
const PASSWORD_PARAMETER_IN_TEXT = /([?&](?:ssl)?password=)[^&#\s"'`]*/gi;

/**
 * One URL-valued setting, as written (it may not parse): the password of its userinfo is
 * masked, and with `hideUser` the user too. The userinfo ends at the last `@`, as the URL
 * standard reads it, so a password with a raw `@` is masked whole.
 */
export function redactUrl(raw: string, options: { hideUser?: boolean } = {}): string {
  const scheme = raw.indexOf('://');
  const start = scheme < 0 ? 0 : scheme + 3;
  const at = raw.lastIndexOf('@');
  let out = raw;
  if (at >= start) {
    const userinfo = raw.slice(start, at);
    const colon = userinfo.indexOf(':');
    const shown =
      options.hideUser === true
        ? MASK
        : colon < 0
          ? userinfo
          : `${userinfo.slice(0, colon)}:${MASK}`;
    out = `${raw.slice(0, start)}${shown}${raw.slice(at)}`;
  }
  return out.replace(PASSWORD_PARAMETER, `$1${MASK}`);
}

/** `scheme://user:password@` anywhere in a text (a log line, an error message). */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/@:"'`]*):[^\s@"'`]*@/gi;

/** Masks the password of every URL in `text` that carries one. */
export function redactUrlsInText(text: string): string {
  return text.replace(URL_PASSWORD, `$1:${MASK}@`).replace(PASSWORD_PARAMETER_IN_TEXT, `$1${MASK}`);
}
