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
    /* The first click sorts best first where the column says which order that is. */
    var current = header.getAttribute("aria-sort");
    var ascending = current ? current !== "ascending"
                            : header.getAttribute("data-sort-first") !== "desc";
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
  function more(button) {
    /* A long table shows its first rows; the rest come from a file beside the page. */
    var block = button.closest(".lg-table");
    var body = block.querySelector("table").tBodies[0];
    var status = block.querySelector(".lg-more [role=status]");
    button.disabled = true;
    fetch(button.getAttribute("data-rows"))
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
      .then(function (html) {
        body.innerHTML = html;  /* rows written and escaped by the generator */
        status.textContent = "Showing all " + body.rows.length + " rows.";
        button.remove();
      })
      .catch(function () {
        button.disabled = false;
        status.textContent = "The rows could not be loaded; use the CSV or JSON download.";
      });
  }
  function setup() {
    document.querySelectorAll(".lg-more button[data-rows]").forEach(function (button) {
      button.addEventListener("click", function () { more(button); });
    });
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
