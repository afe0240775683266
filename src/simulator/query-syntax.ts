/**
 * Tokens and the expression grammar of Weblate's search language (`weblate/utils/search.py`):
 * terms joined by `AND`, `OR`, `NOT` (any case) and parentheses, adjacent terms meaning
 * AND. Precedence as usual: NOT binds tighter than AND, AND tighter than OR. The terms
 * themselves are read by a callback, so this file knows nothing about fields.
 */

export type QueryNode<Term> =
  | { kind: 'and'; children: QueryNode<Term>[] }
  | { kind: 'or'; children: QueryNode<Term>[] }
  | { kind: 'not'; child: QueryNode<Term> }
  | { kind: 'term'; term: Term };

export type ReadTerm<Term> = (token: string) => { term: Term } | { error: string };

const OPERATORS = new Set(['AND', 'OR', 'NOT']);

/**
 * Splits on whitespace and around parentheses. A double quote starts a quoted stretch that
 * runs to the next double quote, spaces and parentheses included, as in Weblate's grammar.
 */
export function tokenizeQuery(text: string): string[] | { error: string } {
  const tokens: string[] = [];
  let current = '';
  let isQuoted = false;
  for (const char of text) {
    if (char === '"') isQuoted = !isQuoted;
    if (!isQuoted && (/\s/.test(char) || char === '(' || char === ')')) {
      if (current !== '') tokens.push(current);
      current = '';
      if (char === '(' || char === ')') tokens.push(char);
      continue;
    }
    current += char;
  }
  if (isQuoted) return { error: 'Unterminated quoted value' };
  if (current !== '') tokens.push(current);
  return tokens;
}

class QuerySyntaxError extends Error {}

interface ParserState<Term> {
  tokens: readonly string[];
  at: number;
  readTerm: ReadTerm<Term>;
}

const peek = (state: ParserState<unknown>): string | undefined => state.tokens[state.at];

function isOperator(token: string | undefined, name: string): boolean {
  return token !== undefined && token.toUpperCase() === name;
}

function joined<Term>(kind: 'and' | 'or', children: QueryNode<Term>[]): QueryNode<Term> {
  return children.length === 1 ? (children[0] as QueryNode<Term>) : { kind, children };
}

function parseOr<Term>(state: ParserState<Term>): QueryNode<Term> {
  const children = [parseAnd(state)];
  while (isOperator(peek(state), 'OR')) {
    state.at += 1;
    children.push(parseAnd(state));
  }
  return joined('or', children);
}

/** Explicit `AND` or plain juxtaposition, until `OR`, `)` or the end. */
function parseAnd<Term>(state: ParserState<Term>): QueryNode<Term> {
  const children = [parseNot(state)];
  for (;;) {
    const token = peek(state);
    if (token === undefined || token === ')' || isOperator(token, 'OR')) break;
    if (isOperator(token, 'AND')) state.at += 1;
    children.push(parseNot(state));
  }
  return joined('and', children);
}

function parseNot<Term>(state: ParserState<Term>): QueryNode<Term> {
  if (!isOperator(peek(state), 'NOT')) return parsePrimary(state);
  state.at += 1;
  return { kind: 'not', child: parseNot(state) };
}

function parsePrimary<Term>(state: ParserState<Term>): QueryNode<Term> {
  const token = peek(state);
  if (token === undefined) throw new QuerySyntaxError('Expected a term at the end of the query');
  if (token === ')' || OPERATORS.has(token.toUpperCase())) {
    throw new QuerySyntaxError(`Expected a term, found "${token}"`);
  }
  state.at += 1;
  if (token === '(') {
    const inner = parseOr(state);
    if (peek(state) !== ')') throw new QuerySyntaxError('Missing closing parenthesis');
    state.at += 1;
    return inner;
  }
  const read = state.readTerm(token);
  if ('error' in read) throw new QuerySyntaxError(read.error);
  return { kind: 'term', term: read.term };
}

/** The expression of a query, null for an empty one, or the reason it does not parse. */
export function parseExpression<Term>(
  text: string,
  readTerm: ReadTerm<Term>,
): { expression: QueryNode<Term> | null } | { error: string } {
  const tokens = tokenizeQuery(text);
  if ('error' in tokens) return tokens;
  if (tokens.length === 0) return { expression: null };
  const state: ParserState<Term> = { tokens, at: 0, readTerm };
  try {
    const expression = parseOr(state);
    const rest = peek(state);
    if (rest !== undefined) return { error: `Unexpected "${rest}"` };
    return { expression };
  } catch (error) {
    if (error instanceof QuerySyntaxError) return { error: error.message };
    throw error;
  }
}
