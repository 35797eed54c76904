// Starts GraphiQL (its UMD build sets window.GraphiQL) against the endpoint
// the server put in data-endpoint. The Headers tab is open: staff paste
// {"Authorization": "Token <key>"} there and GraphiQL sends it with each
// request it makes from then on. Headers are not persisted to localStorage,
// so a token does not outlive the tab. A first visit opens on how to log
// in, with the createToken mutation ready to run.
(function () {
  'use strict';
  var login = [
    '# The sales platform\'s GraphQL playground.',
    '#',
    '# To act as a user, log in first:',
    '#   1. Fill in your username and password below and run Login (the',
    '#      play button, or Ctrl-Enter).',
    '#   2. Copy the token from the answer, then write in the Headers tab',
    '#      below:  {"Authorization": "Token <the token>"}',
    '# Every later operation of this tab runs as that user. Without a token',
    '# you see the public catalogue: send {"X-Partner-Domain": "<a partner\'s',
    '# site domain>"} instead. Docs (the book icon) browses the schema.',
    '',
    'mutation Login {',
    '  createToken(input: {username: "", password: ""}) {',
    '    token',
    '    user { username }',
    '    errors { field code message }',
    '  }',
    '}',
    '',
    'query Me {',
    '  viewer { user { username } partner { uuid name } }',
    '}',
    '',
  ].join('\n');
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.dataset.endpoint });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: login,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
