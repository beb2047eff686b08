import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Gateway error texts belong to the one catalogue (src/errors). Outside it,
 * the text of a gateway error must be a reference into the catalogue: the
 * message of `new GatewayError(fault, message)`, and the `error.message` of
 * any error body that carries a `fault` (Envoy's local replies are built as
 * such a body), must come from a name imported from src/errors: a member, a
 * call, a conditional or `??` between such references, or a local constant
 * initialised with one. A literal, a template, a concatenation, a parameter
 * or a local helper is reported, however many variables it passes through.
 */

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Names the file imports from a module under src/errors (`name` is the file's path from the repository root). */
function catalogueImports(file: ts.SourceFile, name: string): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.importClause) continue;
    const target = posix.normalize(posix.join(posix.dirname(name), statement.moduleSpecifier.text));
    if (!target.startsWith('src/errors/')) continue;
    const clause = statement.importClause;
    if (clause.name) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
  }
  return names;
}

type Declaration = { kind: 'const'; init: ts.Expression } | { kind: 'other' } | null;

/** The nearest declaration of `name` in scope at `at`: a const with its initialiser, something else (a let, a parameter, a function), or none. */
function declarationOf(name: string, at: ts.Node): Declaration {
  for (let scope: ts.Node | undefined = at.parent; scope; scope = scope.parent) {
    if (ts.isFunctionLike(scope) && scope.parameters.some((p) => bindsName(p.name, name))) return { kind: 'other' };
    const statements = ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope) || ts.isDefaultClause(scope) ? scope.statements : null;
    if (!statements) continue;
    for (const statement of statements) {
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) {
          if (!bindsName(d.name, name)) continue;
          const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
          return isConst && ts.isIdentifier(d.name) && d.initializer ? { kind: 'const', init: d.initializer } : { kind: 'other' };
        }
      }
      if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === name) return { kind: 'other' };
    }
  }
  return null;
}

function bindsName(binding: ts.BindingName, name: string): boolean {
  if (ts.isIdentifier(binding)) return binding.text === name;
  return binding.elements.some((e) => !ts.isOmittedExpression(e) && bindsName(e.name, name));
}

/** Whether the expression's text comes from the catalogue. */
function fromCatalogue(node: ts.Expression, imports: ReadonlySet<string>, depth = 0): boolean {
  if (depth > 20) return false;
  const next = (e: ts.Expression): boolean => fromCatalogue(e, imports, depth + 1);
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) return next(node.expression);
  if (ts.isConditionalExpression(node)) return next(node.whenTrue) && next(node.whenFalse);
  if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || node.operatorToken.kind === ts.SyntaxKind.BarBarToken))
    return next(node.left) && next(node.right);
  // A call's arguments are the values the text quotes; the text is the callee's.
  if (ts.isCallExpression(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) return next(node.expression);
  if (ts.isIdentifier(node)) {
    const declaration = declarationOf(node.text, node);
    if (declaration === null) return imports.has(node.text);
    return declaration.kind === 'const' && next(declaration.init);
  }
  return false;
}

/** The `error: { message }` of an object literal that also carries a `fault`: a gateway error body. */
function errorBodyMessage(node: ts.ObjectLiteralExpression): ts.Expression | null {
  const named = (n: ts.ObjectLiteralElementLike, name: string): boolean => n.name !== undefined && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name)) && n.name.text === name;
  if (!node.properties.some((p) => named(p, 'fault'))) return null;
  const error = node.properties.find((p) => named(p, 'error'));
  if (!error || !ts.isPropertyAssignment(error) || !ts.isObjectLiteralExpression(error.initializer)) return null;
  const message = error.initializer.properties.find((p) => named(p, 'message'));
  if (!message) return null;
  if (ts.isShorthandPropertyAssignment(message)) return message.name;
  return ts.isPropertyAssignment(message) ? message.initializer : null;
}

interface Scan {
  /** `file:line` of every text that does not come from the catalogue. */
  readonly outside: string[];
  /** How many gateway error texts were looked at. */
  readonly checked: number;
}

function scan(source: string, name: string): Scan {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
  const imports = catalogueImports(file, name);
  const outside: string[] = [];
  let checked = 0;
  const check = (text: ts.Expression, at: ts.Node): void => {
    checked += 1;
    if (!fromCatalogue(text, imports)) outside.push(`${name}:${file.getLineAndCharacterOfPosition(at.getStart()).line + 1}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'GatewayError') {
      const text = node.arguments?.[1];
      if (text) check(text, node);
    }
    if (ts.isObjectLiteralExpression(node)) {
      const text = errorBodyMessage(node);
      if (text) check(text, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { outside, checked };
}

const SOURCES = files(join(ROOT, 'src'))
  .map((f) => relative(ROOT, f).split('\\').join('/'))
  .filter((f) => !f.startsWith('src/errors/'));

describe('one message catalogue', () => {
  it('builds every gateway error text outside src/errors from the catalogue', () => {
    const scans = SOURCES.map((f) => ({ file: f, ...scan(readFileSync(join(ROOT, f), 'utf8'), f) }));
    expect(
      scans.flatMap((s) => s.outside),
      'move the text into src/errors/messages.ts',
    ).toEqual([]);
    // The scan sees every construction the plain text shows (a rename of GatewayError would otherwise pass silently), and Envoy's reply body.
    const constructions = (file: string): number => readFileSync(join(ROOT, file), 'utf8').split('new GatewayError(').length - 1;
    for (const s of scans) expect(s.checked, s.file).toBeGreaterThanOrEqual(constructions(s.file));
    expect(scans.reduce((n, s) => n + s.checked, 0)).toBeGreaterThanOrEqual(40);
    expect(scans.find((s) => s.file === 'src/envoy/local-reply.ts')?.checked).toBe(1);
  });

  const planted = (source: string): string[] => scan(`import { MESSAGES } from '../errors/messages.js';\nimport { OTHER } from '../models/other.js';\n${source}`, 'src/planted/planted.ts').outside;

  it('reports a text written in place (the check can fail)', () => {
    expect(planted("throw new GatewayError('invalid_request', 'gw: no');")).toEqual(['src/planted/planted.ts:3']);
    expect(planted("throw new GatewayError('invalid_request', `gw: ${x}`);")).toEqual(['src/planted/planted.ts:3']);
    expect(planted("throw new GatewayError('invalid_request', 'gw: ' + MESSAGES.noBearer);")).toEqual(['src/planted/planted.ts:3']);
  });

  it('reports a text built into a variable, a parameter or a helper first', () => {
    expect(planted("const text = `gw: ${x}`;\nconst again = text;\nthrow new GatewayError('invalid_request', again);")).toEqual(['src/planted/planted.ts:5']);
    expect(planted("function refuse(text: string) {\n  return new GatewayError('invalid_request', text);\n}")).toEqual(['src/planted/planted.ts:4']);
    expect(planted("const say = (x: string) => `gw: ${x}`;\nthrow new GatewayError('invalid_request', say('no'));")).toEqual(['src/planted/planted.ts:4']);
    expect(planted("let text = MESSAGES.noBearer;\ntext = 'gw: changed';\nthrow new GatewayError('invalid_request', text);")).toEqual(['src/planted/planted.ts:5']);
    expect(planted("function f() {\n  const MESSAGES = { no: 'gw: no' };\n  return new GatewayError('invalid_request', MESSAGES.no);\n}")).toEqual(['src/planted/planted.ts:5']);
    expect(planted("throw new GatewayError('invalid_request', OTHER.text);")).toEqual(['src/planted/planted.ts:3']);
    expect(planted("const texts = { no: 'gw: no' };\nthrow new GatewayError('invalid_request', texts.no);")).toEqual(['src/planted/planted.ts:4']);
    expect(planted("throw new GatewayError('invalid_request', ok ? MESSAGES.noBearer : 'gw: no');")).toEqual(['src/planted/planted.ts:3']);
  });

  it('reports an error body with a fault whose message is not from the catalogue', () => {
    expect(planted("const body = { type: 'error', error: { type: 'api_error', message: 'gw: no' }, fault: 'internal_error' };")).toEqual(['src/planted/planted.ts:3']);
    expect(planted("const message = `gw: ${x}`;\nconst body = { error: { message }, fault: 'internal_error' };")).toEqual(['src/planted/planted.ts:4']);
    // Without a fault it is not a gateway error (the admin API's own answers).
    expect(planted("const body = { type: 'error', error: { message: 'gw: admin' } };")).toEqual([]);
  });

  it('accepts references into the catalogue, directly or through constants', () => {
    expect(planted("throw new GatewayError('no_session', MESSAGES.noBearer);")).toEqual([]);
    expect(planted("throw new GatewayError('no_session', MESSAGES.notAModel(`${id}`, await list()));")).toEqual([]);
    expect(planted("throw new GatewayError('no_session', a ? MESSAGES.noBearer : (MESSAGES.table[f] ?? MESSAGES.other));")).toEqual([]);
    expect(planted("function f(ok: boolean) {\n  const message = ok ? MESSAGES.a : MESSAGES.b(1);\n  return new GatewayError('no_session', message);\n}")).toEqual([]);
    expect(planted("const message = MESSAGES.reply('x');\nconst body = { error: { type: 't', message }, fault: 'x' };")).toEqual([]);
  });
});
