/**
 * The project's own lint rules (as VS Code's .eslint-plugin-local and Signal's .eslint/rules):
 * - layers: a module of src-main/core imports only modules below it (LAYERS), the core never the
 *   transports or the Electron shell, shared code and the renderer never main; the team room sits above
 *   the solo modules, and no file outside it names it but its port (team-port.ts, low in the layers):
 *   solo code imports the port's types only, the composition (settings/, the root) also its door;
 * - sql-in-stores: SQL text and statement calls (`.prepare(`, `.exec(`, node-postgres' `.query(`) only in the table owners
 *   (`*-store.ts`, `*-repository.ts`) and the catalog's own files (opening, migrating, migrations).
 * test/unit/project/lint-rules.test.ts feeds each rule a bad file.
 */
import path from 'node:path';

/** src-main/core's modules, lowest first: a module may import its own and those before it. */
export const LAYERS = [
  'util',
  'rpc',
  'tags',
  'media',
  'tensors',
  'catalog',
  // The team library's port (team-port.ts): types for solo code, below every module that names them,
  // and the room's one door for the composition (re-exported from team/team-room.ts).
  'team-port',
  'service',
  'analysis',
  'people',
  'marks',
  'library',
  'proxies',
  'pipeline',
  'remote',
  'collections',
  'search',
  'files',
  'export',
  'service-actions',
  // The team library's room: it works through the solo modules; nothing outside it names it but team-port.ts.
  'team',
  'settings',
];
/** Files at the core's root: the composition (app-core) and what only it uses. Above every module. */
const ROOT_RANK = LAYERS.length;

const norm = (f) => f.split(path.sep).join('/');
/** The team room's port: the one file outside team/ that names the room. */
const TEAM_PORT = /(?:^|\/)src-main\/core\/team-port\.ts$/;
/** The room's one door, which only the port re-exports (the composition's way in). */
const TEAM_DOOR = /(?:^|\/)src-main\/core\/team\/team-room(?:\.ts)?$/;
/** The team room's rank: modules below it may take only types from the port. */
const TEAM_RANK = LAYERS.indexOf('team');
/** An import or re-export that names types only (erased from the build: it loads nothing). */
const typesOnly = (n) =>
  n.importKind === 'type' || n.exportKind === 'type' || (n.specifiers?.length > 0 && n.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/** Where a file sits: its area of the repository and, inside src-main/core, its module and rank. */
function placeOf(file) {
  const f = norm(file);
  const core = /(?:^|\/)src-main\/core\/(.+)$/.exec(f);
  if (core) {
    const rest = core[1];
    // `../service` names the module's folder (its index), `./app-core` a file at the root.
    const file = rest.replace(/\.ts$/, '');
    const mod = rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : LAYERS.includes(file) ? file : null;
    if (mod === null) return { area: 'core', module: '(root)', rank: ROOT_RANK };
    const rank = LAYERS.indexOf(mod);
    return { area: 'core', module: mod, rank: rank < 0 ? -1 : rank };
  }
  if (/(?:^|\/)src-main\//.test(f)) return { area: 'main' };
  if (/(?:^|\/)src-shared\//.test(f)) return { area: 'shared' };
  if (/(?:^|\/)src-renderer\//.test(f)) return { area: 'renderer' };
  if (/(?:^|\/)src-preload\//.test(f)) return { area: 'preload' };
  return { area: 'other' };
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'imports go down the layers only (README "Architecture")' },
    schema: [],
    messages: {
      upward: '{{from}} is below {{to}} in the layers ({{order}}): move the shared piece down, or hand {{from}} what it needs from above.',
      unknown: 'src-main/core/{{module}} is not in the layer list of eslint-rules/index.mjs: add it where it belongs.',
      transport: 'the core runs without its transports: src-main/core must not import {{to}}.',
      mainFromShared: '{{area}} code must not import src-main ({{to}}).',
      frozen: 'a migration is frozen text: it must not import live code ({{to}}), which may change after it shipped. Copy what it needs into it.',
      teamPort: '{{from}} is outside the team room: it names the room only through src-main/core/team-port.ts, not {{to}}. Solo code adds the interface it needs to the port (team/team-runtime.ts hands in its implementation); the composition goes through the door the port re-exports (openTeamRoom).',
      portTypes: 'team-port.ts holds types from below and the room\'s door (team/team-room.ts) only: `import type` / `export type` ({{to}}), so that naming the port from solo code loads nothing.',
      portValue: '{{from}} is solo code: it takes only types from team-port.ts (`import type`), so that the team room is not loaded by it ({{to}}).',
    },
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const from = placeOf(file);
    if (from.area === 'other') return {};
    // A migration, or a frozen snapshot of code beside them (every file of the folder but its index).
    const migration = /\/catalog\/migrations\/(?!index\.ts$)[^/]+\.ts$/.test(norm(file));
    // What a frozen file may import: the Migration type, and the frozen snapshots beside it.
    const frozenSpec = (spec) => spec === '../migration' || /^\.\/(?!index$)[^/]+$/.test(spec);
    const port = TEAM_PORT.test(norm(file));
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const resolved = norm(path.resolve(path.dirname(file), spec));
      // The port re-exports the room's door; every other import of the port is of types from below it.
      if (port && TEAM_DOOR.test(resolved)) return;
      if (port && !typesOnly(node)) {
        context.report({ node, messageId: 'portTypes', data: { to: spec } });
        return;
      }
      if (migration && !frozenSpec(spec)) {
        context.report({ node, messageId: 'frozen', data: { to: spec } });
        return;
      }
      const target = placeOf(resolved);
      if ((from.area === 'shared' || from.area === 'renderer') && (target.area === 'core' || target.area === 'main')) {
        context.report({ node, messageId: 'mainFromShared', data: { area: from.area, to: spec } });
        return;
      }
      if (from.area !== 'core') return;
      if (target.area === 'main') {
        context.report({ node, messageId: 'transport', data: { to: spec } });
        return;
      }
      if (target.area !== 'core' || target.module === from.module) return;
      if (from.rank < 0) return context.report({ node, messageId: 'unknown', data: { module: from.module } });
      if (target.rank < 0) return context.report({ node, messageId: 'unknown', data: { module: target.module } });
      if (target.module === 'team') return context.report({ node, messageId: 'teamPort', data: { from: from.module, to: spec } });
      if (target.module === 'team-port' && from.rank < TEAM_RANK && !typesOnly(node)) return context.report({ node, messageId: 'portValue', data: { from: from.module, to: spec } });
      if (target.rank > from.rank) context.report({ node, messageId: 'upward', data: { from: from.module, to: target.module, order: `${LAYERS.join(' < ')} < app-core` } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    };
  },
};

/** A statement's opening words followed by the word that makes it SQL (FROM, INTO, SET, TABLE...). */
export const SQL_TEXT = /^\s*(?:SELECT\b[\s\S]*\bFROM\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+[\w.]+(?:\s+AS\s+\w+)?\s+SET\b|DELETE\s+FROM\b|(?:CREATE|DROP|ALTER)\s+(?:TEMP\s+|UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER|SCHEMA|FUNCTION)\b|WITH\s+\w+\s+AS\s*\()/i;
/** The files that may hold SQL: a table's owner, or the catalog's own (opening, migrating, migrations). */
export const OWNER = /(?:-store|-repository)\.ts$/;
export const CATALOG_OWN = /(?:^|\/)src-main\/core\/catalog\//;

const sqlInStores = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL only in the owner of its table (*-store.ts, *-repository.ts) or the catalog itself' },
    schema: [],
    messages: {
      call: '`.{{name}}(` runs SQL: only a table\'s owner (*-store.ts / *-repository.ts) or src-main/core/catalog may. Add a named read or write to the owner and call that.',
      text: 'SQL text belongs in the owner of its table (*-store.ts / *-repository.ts) or src-main/core/catalog.',
    },
  },
  create(context) {
    const file = norm(context.filename ?? context.getFilename());
    if (!/(?:^|\/)src-main\//.test(file) || OWNER.test(file) || CATALOG_OWN.test(file)) return {};
    const text = (node, value) => {
      if (typeof value === 'string' && SQL_TEXT.test(value)) context.report({ node, messageId: 'text' });
    };
    return {
      CallExpression(node) {
        const c = node.callee;
        if (c.type === 'MemberExpression' && !c.computed && c.property.type === 'Identifier' && ['prepare', 'exec', 'query'].includes(c.property.name) && node.arguments.length > 0) {
          const a = node.arguments[0];
          const str = a.type === 'Literal' && typeof a.value === 'string' ? a.value : a.type === 'TemplateLiteral' ? a.quasis.map((q) => q.value.cooked ?? '').join('?') : null;
          // db.prepare(sql) is SQL whatever the text; .exec and .query (node-postgres) only with SQL text (RegExp#exec takes any string).
          if (str !== null && (c.property.name === 'prepare' || SQL_TEXT.test(str))) context.report({ node, messageId: 'call', data: { name: c.property.name } });
        }
      },
      Literal: (node) => text(node, node.value),
      TemplateLiteral: (node) => text(node, node.quasis.map((q) => q.value.cooked ?? '').join('?')),
    };
  },
};

export default { meta: { name: 'reelscout-local' }, rules: { layers, 'sql-in-stores': sqlInStores } };
