// Starts GraphiQL (its UMD build sets window.GraphiQL) against the endpoint
// the server put in data-endpoint. The Headers tab is open: staff paste
// {"Authorization": "Token <key>"} there and GraphiQL sends it with each
// request it makes from then on. Headers are not persisted to localStorage,
// so a token does not outlive the tab.
(function () {
  'use strict';
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.dataset.endpoint });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
