import { parseArgs } from 'node:util';
import { ERROR_BODIES, LIST_PAGINGS, TAG_SHAPES, type EmulatorConfig } from './config';
import { TAG_VOCABULARIES } from './vocabulary';
import { startEmulator, type EmulatorOptions } from './server';

const USAGE = `npm run emulator -- --port N --api-key KEY[:QPS[:QUOTA]] [--api-key ...] [--max-body-bytes N]
  [--config file.json] [--latency-ms N] [--embedding-dim N] [--tag-shape ${TAG_SHAPES.join('|')}]
  [--tag-vocabulary ${TAG_VOCABULARIES.join('|')}] [--top-k-max N] [--collection-hits video|segment]
  [--error-body ${ERROR_BODIES.join('|')}] [--list-paging ${LIST_PAGINGS.join('|')}] [--list-page-size N]
  [--sync-timeout-ms N] [--sync-processing-ms N] [--fail-429 P] [--fail-500 P] [--fail-502 P] [--fail-504 P]
  [--failure-seed N] [--quota-exceeded]
Admin (no auth): GET/POST /__admin/config, GET /__admin/stats, POST /__admin/reset, GET/POST /__admin/keys,
  POST /__admin/fail-next`;

function num(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${flag} needs a number, got ${v}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'api-key': { type: 'string', multiple: true, default: [] },
      'max-body-bytes': { type: 'string' },
      config: { type: 'string' },
      'latency-ms': { type: 'string' },
      'embedding-dim': { type: 'string' },
      'tag-shape': { type: 'string' },
      'tag-vocabulary': { type: 'string' },
      'top-k-max': { type: 'string' },
      'collection-hits': { type: 'string' },
      'error-body': { type: 'string' },
      'list-paging': { type: 'string' },
      'list-page-size': { type: 'string' },
      'sync-timeout-ms': { type: 'string' },
      'sync-processing-ms': { type: 'string' },
      'fail-429': { type: 'string' },
      'fail-500': { type: 'string' },
      'fail-502': { type: 'string' },
      'fail-504': { type: 'string' },
      'failure-seed': { type: 'string' },
      'quota-exceeded': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const opts: EmulatorOptions = { port: num(values.port, 'port') ?? 0, keys: values['api-key'], configFile: values.config };
  const set = <K extends keyof EmulatorConfig>(k: K, v: EmulatorConfig[K] | undefined) => {
    if (v !== undefined) (opts as Partial<EmulatorConfig>)[k] = v;
  };
  set('maxBodyBytes', num(values['max-body-bytes'], 'max-body-bytes'));
  set('latencyMs', num(values['latency-ms'], 'latency-ms'));
  set('embeddingDim', num(values['embedding-dim'], 'embedding-dim'));
  set('tagShape', values['tag-shape'] as EmulatorConfig['tagShape'] | undefined);
  set('tagVocabulary', values['tag-vocabulary'] as EmulatorConfig['tagVocabulary'] | undefined);
  set('topKMax', num(values['top-k-max'], 'top-k-max'));
  set('collectionHits', values['collection-hits'] as EmulatorConfig['collectionHits'] | undefined);
  set('errorBody', values['error-body'] as EmulatorConfig['errorBody'] | undefined);
  set('listPaging', values['list-paging'] as EmulatorConfig['listPaging'] | undefined);
  set('listPageSize', num(values['list-page-size'], 'list-page-size'));
  set('syncTimeoutMs', num(values['sync-timeout-ms'], 'sync-timeout-ms'));
  set('syncProcessingMs', num(values['sync-processing-ms'], 'sync-processing-ms'));
  set('failureSeed', num(values['failure-seed'], 'failure-seed'));
  if (values['quota-exceeded']) set('quotaExceeded', true);
  const rates: EmulatorConfig['failureRates'] = {};
  for (const s of [429, 500, 502, 504] as const) {
    const r = num(values[`fail-${s}`], `fail-${s}`);
    if (r !== undefined) rates[s] = r;
  }
  if (Object.keys(rates).length) set('failureRates', rates);
  if (!opts.keys?.length && !opts.configFile) process.stderr.write('emulator: no --api-key given: every request will get 401\n');

  const emu = await startEmulator(opts);
  process.stdout.write(`Service emulator listening on ${emu.url}\n`);
  const shutdown = () => {
    emu.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((e: unknown) => {
  process.stderr.write(`emulator: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
  process.exit(2);
});
