/* Charts follow the page: the colours of Material's scheme (light or slate), read from its
   CSS variables on load, when the reader switches scheme and after an instant navigation;
   and a height that fits the legend below the plot, so a narrow screen keeps the plot whole;
   a chart in a collapsed part sized to the page when the part opens. */
(function () {
  var PLOT = 300;  /* px of plot area and axes above the legend */
  function colours() {
    var style = getComputedStyle(document.body);
    function v(name, fallback) { return style.getPropertyValue(name).trim() || fallback; }
    var grid = v("--md-default-fg-color--lightest", "#e5e7eb");
    return {
      paper_bgcolor: v("--md-default-bg-color", "#ffffff"),
      plot_bgcolor: v("--md-default-bg-color", "#ffffff"),
      "font.color": v("--md-default-fg-color", "#374151"),
      "xaxis.gridcolor": grid, "yaxis.gridcolor": grid,
      "xaxis.linecolor": grid, "yaxis.linecolor": grid
    };
  }
  function legendHeight(div) {
    var legend = div.querySelector("g.legend");
    return legend ? Math.ceil(legend.getBoundingClientRect().height) : 0;
  }
  function fit(div) {
    /* The legend sits at the bottom of the figure; the plot keeps PLOT px above it. */
    var below = legendHeight(div) + 64;
    var height = PLOT + below;
    var layout = div.layout || {};
    if (Math.abs((layout.height || 0) - height) > 2 || (layout.margin || {}).b !== below) {
      /* The box around the chart has a fixed height, which plotly's resize reads. */
      div.parentElement.style.height = height + "px";
      window.Plotly.relayout(div, { height: height, "margin.b": below, autosize: true });
    }
  }
  function follow(div) {
    if (!div.lgFollows && div.on) {
      div.lgFollows = true;
      div.on("plotly_afterplot", function () { fit(div); });
    }
    window.Plotly.relayout(div, colours()).then(function () { fit(div); });
  }
  function all() {
    if (!window.Plotly) { return; }
    Array.prototype.forEach.call(document.querySelectorAll(".lg-chart .js-plotly-plot"), follow);
  }
  /* A chart in a collapsed <details> is drawn without a width: size it when it opens. */
  document.addEventListener("toggle", function (event) {
    if (!window.Plotly || !event.target.open) { return; }
    event.target.querySelectorAll(".lg-chart .js-plotly-plot").forEach(function (div) {
      window.Plotly.Plots.resize(div).then(function () { follow(div); });
    });
  }, true);
  new MutationObserver(all).observe(document.body, {
    attributes: true, attributeFilter: ["data-md-color-scheme"]
  });
  if (window.document$ && window.document$.subscribe) {
    window.document$.subscribe(all);  /* Material's instant navigation */
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else {
    all();
  }
})();
