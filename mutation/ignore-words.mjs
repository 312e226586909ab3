import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/**
 * Stryker's `ignorers: ["words"]` (docs/mutation.md): what the spec leaves to a deployment's own words is not mutated,
 * by configuration rather than by marks in the code.
 * - A string or template literal that is the value of a member naming words: a problem's `title` and `detail`, an
 *   error's `message` and `description`, `error_description` (7.3 and 7.4 fix the codes, never the sentences).
 * - The words of a refusal's reason, passed as the last argument of a call whose callee is named for words
 *   (`refuse(mismatch, detail)`, `refusal(ctx, code, message)`): the code argument stays mutated.
 * - The message of an Error the code throws (`new TypeError('...')`): who reads it is a programmer, not a deployment.
 * - What is passed to a table of words (`MESSAGES.expired(created, now)`): spliced into a sentence.
 * Everything else, a string that is a code, a header, a media type, a type tag compared in a condition, stays mutated.
 */
const WORD_MEMBERS = new Set(['title', 'detail', 'message', 'description', 'error_description', 'why', 'reason', 'hint']);
const WORD_CALLEES = new Set(['refuse', 'refusal', 'problem', 'fail', 'mismatch']);
const ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError']);
/** The modules of words (messages.ts, itself not mutated): what is passed in is spliced into a sentence. */
const WORD_TABLES = new Set(['MESSAGES', 'WHY', 'DETAIL']);

/** Whether `path` is a string or template literal, or the whole of one expression built of them. */
function isWords(path) {
  return path.isStringLiteral() || path.isTemplateLiteral();
}

function calleeName(call) {
  const callee = call.node.callee;
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'words', {
    shouldIgnore(path) {
      if (!isWords(path)) return undefined;
      const parent = path.parentPath;
      if (!parent) return undefined;
      if (parent.isObjectProperty() && path.key === 'value') {
        const key = parent.node.key;
        const name = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
        if (name !== undefined && WORD_MEMBERS.has(name)) return `the ${name} member holds words the spec leaves open`;
      }
      if (parent.isNewExpression() && parent.node.callee.type === 'Identifier' && ERRORS.has(parent.node.callee.name))
        return 'an error message is read by a programmer, not by a deployment';
      if (parent.isCallExpression() && path.listKey === 'arguments') {
        const callee = parent.node.callee;
        if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && WORD_TABLES.has(callee.object.name))
          return `an argument of ${callee.object.name} is spliced into words the spec leaves open`;
        const name = calleeName(parent);
        const last = path.key === parent.node.arguments.length - 1;
        if (name !== undefined && WORD_CALLEES.has(name) && last && path.key > 0) return `the words of ${name}(...) are the deployment's own`;
      }
      return undefined;
    },
  }),
];
