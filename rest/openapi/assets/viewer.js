// Starts Redoc on the element #redoc with the document its data-spec-url
// names (a file, not an inline script, so the page's CSP can forbid those).
(function () {
  var el = document.getElementById("redoc");
  Redoc.init(el.getAttribute("data-spec-url"), {
    expandResponses: "200,201",
    jsonSampleExpandLevel: 2,
    pathInMiddlePanel: true,
  }, el);
})();
