/* Sort a results table by clicking (or pressing Enter on) a column header. No dependencies. */
(function () {
  function key(cell) {
    var raw = cell.getAttribute("data-sort");
    var text = raw === null ? cell.textContent.trim() : raw;
    var number = parseFloat(text);
    return isNaN(number) || !/^-?[0-9.eE+-]+$/.test(text) ? { n: false, v: text.toLowerCase() }
                                                            : { n: true, v: number };
  }
  function sort(table, index, header) {
    var body = table.tBodies[0];
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[index]), y = key(b.cells[index]);
      var order = x.n && y.n ? x.v - y.v : String(x.v).localeCompare(String(y.v));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }
  function setup() {
    document.querySelectorAll("table.lg-sortable").forEach(function (table) {
      if (!table.tHead) { return; }
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
        th.setAttribute("tabindex", "0");
        th.addEventListener("click", function () { sort(table, index, th); });
        th.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sort(table, index, th); }
        });
      });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); }
  else { setup(); }
})();
