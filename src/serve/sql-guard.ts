/**
 * What `serve` refuses before a client's SQL reaches the shared embedded session. The session
 * runs a client's turns as `weblate_reader` with default_transaction_read_only on, so writes
 * fail in PostgreSQL itself; this guard refuses what could undo that switch. PostgreSQL lets
 * the session's superuser take back its authorization (SET SESSION AUTHORIZATION, set_config,
 * SQL run by query_to_xml or ts_stat), so those never reach it. Pure: a text in, a verdict out.
 */

export type GuardVerdict =
  { allowed: true } | { allowed: false; code: '25006' | '42501' | '42601'; message: string };

/** Settings a client may not set: they make up the guard, or end the one shared session. */
export const GUARDED_SETTINGS: ReadonlySet<string> = new Set([
  'session_authorization',
  'role',
  'default_transaction_read_only',
  'transaction_read_only',
  // The lexer reads strings as PostgreSQL does with this on; off, a backslash would hide SQL.
  'standard_conforming_strings',
  'idle_in_transaction_session_timeout',
  'idle_session_timeout',
  'transaction_timeout',
]);

/** Words refused wherever they stand: functions that change or leave the guard, or reach files. */
const REFUSED_WORDS: ReadonlySet<string> = new Set([
  'set_config',
  'authorization',
  'session_authorization',
  'role',
  'discard',
  'default_transaction_read_only',
  'transaction_read_only',
  'standard_conforming_strings',
  // These run SQL given as a string, which this guard cannot see into.
  'query_to_xml',
  'query_to_xml_and_xmlschema',
  'query_to_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'ts_stat',
  'ts_rewrite',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_stat_file',
]);

const REFUSED_PREFIXES = [
  'lo_',
  'pg_read_',
  'pg_ls_',
  'pg_file_',
  'pg_advisory',
  'pg_try_advisory',
  'dblink',
];

/** Statements refused by their first word. */
const REFUSED_STATEMENTS: ReadonlySet<string> = new Set(['do', 'load', 'listen', 'unlisten']);

type TokenKind = 'word' | 'string' | 'symbol' | 'other';

interface Token {
  kind: TokenKind;
  /** Words and quoted identifiers lower-cased; a symbol as written; '' for the rest. */
  text: string;
}

class LexError extends Error {}

/** The verdict on one client text (a simple query's text or a Parse's statement). */
export function checkClientSql(text: string): GuardVerdict {
  let tokens: Token[];
  try {
    tokens = lex(text);
  } catch (err) {
    if (err instanceof LexError) return refuse('42601', err.message);
    throw err;
  }
  return checkTokens(tokens);
}

/** The verdict on a startup packet's setting (`options` -c pairs and parameters alike). */
export function checkStartupSetting(name: string): GuardVerdict {
  return GUARDED_SETTINGS.has(name.toLowerCase())
    ? refuse('42501', `${name} cannot be set`)
    : { allowed: true };
}

function refuse(code: '25006' | '42501' | '42601', why: string): GuardVerdict {
  return {
    allowed: false,
    code,
    message: `weblate-mirror serve is read-only: ${why}`,
  };
}

function checkTokens(tokens: Token[]): GuardVerdict {
  for (const [i, token] of tokens.entries()) {
    if (token.kind !== 'word') continue;
    if (REFUSED_WORDS.has(token.text) || REFUSED_PREFIXES.some((p) => token.text.startsWith(p)))
      return refuse('42501', `"${token.text}" is not allowed`);
    const next = tokens[i + 1];
    if (token.text === 'read' && next?.kind === 'word' && next.text === 'write')
      return refuse('25006', 'a transaction cannot be made READ WRITE');
  }
  for (const statement of splitStatements(tokens)) {
    const verdict = checkStatement(statement);
    if (!verdict.allowed) return verdict;
  }
  return { allowed: true };
}

function splitStatements(tokens: Token[]): Token[][] {
  const statements: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'symbol' && token.text === ';') statements.push([]);
    else statements.at(-1)!.push(token);
  }
  return statements.filter((s) => s.length > 0);
}

/** Rules that depend on the statement's kind: SET and RESET of guarded names, COPY, ALTER SYSTEM. */
function checkStatement(statement: Token[]): GuardVerdict {
  const words = statement.map((t) => (t.kind === 'word' ? t.text : ''));
  const first = words[0] ?? '';
  if (REFUSED_STATEMENTS.has(first))
    return refuse('42501', `${first.toUpperCase()} is not allowed`);
  if (first === 'set' || first === 'reset') {
    const name = ['session', 'local'].includes(words[1] ?? '') ? words[2] : words[1];
    if (first === 'reset' && name === 'all')
      return refuse('42501', 'RESET ALL would reset the read-only settings');
    if (name !== undefined && GUARDED_SETTINGS.has(name))
      return refuse('25006', `${name} cannot be changed`);
  }
  if (first === 'alter' && words[1] === 'system')
    return refuse('42501', 'ALTER SYSTEM is not allowed');
  if (first === 'deallocate' && words.includes('all'))
    return refuse('42501', "DEALLOCATE ALL would drop other clients' prepared statements");
  if (first === 'copy') return checkCopy(statement);
  return { allowed: true };
}

/** COPY may only write to the client: `COPY … TO STDOUT`. */
function checkCopy(statement: Token[]): GuardVerdict {
  let depth = 0;
  for (const [i, token] of statement.entries()) {
    if (token.kind === 'symbol' && token.text === '(') depth += 1;
    else if (token.kind === 'symbol' && token.text === ')') depth -= 1;
    else if (token.kind === 'word' && token.text === 'program')
      return refuse('42501', 'COPY … PROGRAM is not allowed');
    else if (depth === 0 && token.kind === 'word' && token.text === 'from')
      return refuse('25006', 'COPY … FROM writes to a table');
    else if (depth === 0 && token.kind === 'word' && token.text === 'to') {
      const target = statement[i + 1];
      if (target?.kind !== 'word' || target.text !== 'stdout')
        return refuse('42501', 'COPY writes to the client only (COPY … TO STDOUT)');
    }
  }
  return { allowed: true };
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/**
 * PostgreSQL's lexical rules, as far as telling words from literals and comments needs:
 * nested block comments, '' and E'' strings, dollar quotes, quoted identifiers. A literal left
 * open, and U& escapes (whose words this lexer cannot read), are refused.
 */
function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) i += 1;
    else if (text.startsWith('--', i)) i = endOfLine(text, i);
    else if (text.startsWith('/*', i)) i = endOfBlockComment(text, i);
    else if (c === "'") {
      i = endOfString(text, i, false);
      tokens.push({ kind: 'string', text: '' });
    } else if (c === '"') {
      const end = endOfQuoted(text, i, '"', 'a quoted identifier');
      tokens.push({
        kind: 'word',
        text: text
          .slice(i + 1, end - 1)
          .replaceAll('""', '"')
          .toLowerCase(),
      });
      i = end;
    } else if (c === '$') i = lexDollar(text, i, tokens);
    else if (WORD_START.test(c)) i = lexWord(text, i, tokens);
    else if (/[0-9]/.test(c)) {
      while (i < text.length && /[0-9_.]/.test(text[i]!)) i += 1;
      tokens.push({ kind: 'other', text: '' });
    } else {
      tokens.push({ kind: 'symbol', text: c });
      i += 1;
    }
  }
  return tokens;
}

function lexWord(text: string, start: number, tokens: Token[]): number {
  let i = start;
  while (i < text.length && WORD_PART.test(text[i]!)) i += 1;
  const word = text.slice(start, i).toLowerCase();
  if (word === 'u' && text[i] === '&' && (text[i + 1] === "'" || text[i + 1] === '"'))
    throw new LexError('U& escaped strings and identifiers are not accepted');
  if (word === 'e' && text[i] === "'") {
    tokens.push({ kind: 'string', text: '' });
    return endOfString(text, i, true);
  }
  tokens.push({ kind: 'word', text: word });
  return i;
}

function lexDollar(text: string, start: number, tokens: Token[]): number {
  const tag = DOLLAR_TAG.exec(text.slice(start, start + 200))?.[0];
  if (tag === undefined) {
    // A parameter ($1) or a lone dollar sign.
    let i = start + 1;
    while (i < text.length && /[0-9]/.test(text[i]!)) i += 1;
    tokens.push({ kind: 'other', text: '' });
    return i;
  }
  const end = text.indexOf(tag, start + tag.length);
  if (end === -1) throw new LexError('a dollar-quoted string is not closed');
  tokens.push({ kind: 'string', text: '' });
  return end + tag.length;
}

function endOfLine(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end === -1 ? text.length : end + 1;
}

function endOfBlockComment(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  throw new LexError('a comment is not closed');
}

/** After a '…' string: a doubled quote stays inside; in an E'…' string a backslash escapes. */
function endOfString(text: string, start: number, escapes: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (escapes && c === '\\') i += 2;
    else if (c === "'" && text[i + 1] === "'") i += 2;
    else if (c === "'") return i + 1;
    else i += 1;
  }
  throw new LexError('a string is not closed');
}

function endOfQuoted(text: string, start: number, quote: string, what: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote && text[i + 1] === quote) i += 2;
    else if (text[i] === quote) return i + 1;
    else i += 1;
  }
  throw new LexError(`${what} is not closed`);
}
