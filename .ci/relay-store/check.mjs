// Normalizes two answers of the graph into one relay-runtime store, as a
// Relay client does, and checks that each query still reads back exactly
// its own answer: records of two types that share a record number (a
// universe and a theme, both record 1) must not merge. Relay keys its
// store on id alone, so this holds only if ids are unique across types.
//
//   node check.mjs DIR   (DIR/universes.json, DIR/themes.json: the
//                         bodies answered to the two queries below)
//
// There is no relay-compiler here: the two requests are written by hand
// in the shape it generates (ConcreteRequest).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import relay from 'relay-runtime';

const { Environment, Network, RecordSource, Store, createOperationDescriptor } = relay;

const scalar = (name) => ({ alias: null, args: null, kind: 'ScalarField', name, storageKey: null });

// query NAME { FIELD { id legacyId name { fr } } }, FIELD a list of TYPE.
function request(name, field, type) {
  const selections = [{
    alias: null, args: null, concreteType: type, kind: 'LinkedField', name: field, plural: true, storageKey: null,
    selections: [scalar('id'), scalar('legacyId'), {
      alias: null, args: null, concreteType: 'Localized', kind: 'LinkedField', name: 'name', plural: false,
      storageKey: null, selections: [scalar('fr')],
    }],
  }];
  return {
    fragment: { argumentDefinitions: [], kind: 'Fragment', metadata: null, name, selections, type: 'Query', abstractKey: null },
    kind: 'Request',
    operation: { argumentDefinitions: [], kind: 'Operation', name, selections },
    params: {
      cacheID: name, id: null, metadata: {}, name, operationKind: 'query',
      text: `query ${name} { ${field} { id legacyId name { fr } } }`,
    },
  };
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node check.mjs DIR');
  process.exit(2);
}

// Relay reports a record given two types ("violated the globally unique id
// requirement") as a warning on the console: count it as a failure.
const warnings = [];
for (const level of ['error', 'warn']) {
  const write = console[level];
  console[level] = (...args) => {
    warnings.push(args.map(String).join(' '));
    write(...args);
  };
}

const environment = new Environment({
  network: Network.create(() => { throw new Error('no network: answers are committed'); }),
  store: new Store(new RecordSource()),
});

const queries = [
  { file: 'universes.json', request: request('RelayStoreUniversesQuery', 'universes', 'Universe') },
  { file: 'themes.json', request: request('RelayStoreThemesQuery', 'themes', 'Theme') },
];
for (const q of queries) {
  q.answer = JSON.parse(readFileSync(join(dir, q.file), 'utf8'));
  if (q.answer.errors || !q.answer.data) {
    console.error(`${q.file}: not a successful answer: ${JSON.stringify(q.answer)}`);
    process.exit(1);
  }
  q.operation = createOperationDescriptor(q.request, {});
  environment.commitPayload(q.operation, q.answer.data);
}

let failed = warnings.length > 0;
for (const q of queries) {
  const snapshot = environment.lookup(q.operation.fragment);
  if (snapshot.isMissingData || !isDeepStrictEqual(snapshot.data, q.answer.data)) {
    failed = true;
    console.error(`${q.request.params.name}: the store reads back\n${JSON.stringify(snapshot.data)}\ninstead of the answer\n${JSON.stringify(q.answer.data)}`);
  }
}
const records = environment.getStore().getSource().getRecordIDs().length;
if (failed) {
  console.error('FAIL: records of different types merged in the Relay store');
  process.exit(1);
}
console.log(`ok: ${queries.length} answers normalized into ${records} records, each query reads back its own answer`);
