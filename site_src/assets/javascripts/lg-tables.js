/* Sort a results table by clicking (or pressing Enter on) a column header; load a long
   table's other rows; mark a table wider than the page; open the collapsed part a link
   points into. No dependencies. */
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
        fit(block);
      })
      .catch(function () {
        button.disabled = false;
        status.textContent = "The rows could not be loaded; use the CSV or JSON download.";
      });
  }
  function fit(block) {
    /* A table wider than its box: a "scroll" cue above it until it is scrolled to its end,
       and the box made reachable by keyboard; the caption kept to the box's width. */
    var box = block.querySelector(".lg-scroll");
    if (!box) { return; }
    var over = box.scrollWidth > box.clientWidth + 1;
    var hint = block.querySelector(".lg-hint");
    box.style.setProperty("--lg-width", box.clientWidth + "px");
    block.classList.toggle("lg-overflow", over);
    if (over && !hint) {
      hint = document.createElement("p");
      hint.className = "lg-hint";
      hint.setAttribute("aria-hidden", "true");
      hint.textContent = "More columns: scroll \u2192";
      block.insertBefore(hint, box);
    }
    if (over) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", (block.querySelector("caption") || box).textContent.trim());
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (a) { box.removeAttribute(a); });
    }
    if (hint) {
      /* Out of sight at the end, keeping its line (the table does not jump); gone if it fits. */
      hint.hidden = !over;
      var end = box.scrollLeft + box.clientWidth >= box.scrollWidth - 1;
      hint.style.visibility = end ? "hidden" : "";
    }
  }
  function fitAll() { document.querySelectorAll(".lg-table").forEach(fit); }
  function reveal() {
    /* A link to a table or section inside a collapsed <details> opens it (and its parents). */
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) { return; }
    for (var d = target.closest("details"); d; d = d.parentElement.closest("details")) {
      d.open = true;
    }
    target.scrollIntoView();
  }
  function setup() {
    document.querySelectorAll(".lg-table").forEach(function (block) {
      var box = block.querySelector(".lg-scroll");
      if (box) { box.addEventListener("scroll", function () { fit(block); }, { passive: true }); }
      fit(block);
    });
    window.addEventListener("resize", fitAll);
    /* A table in a collapsed <details> has no width until it opens: fit it then. */
    document.addEventListener("toggle", function (event) {
      if (event.target.open) { event.target.querySelectorAll(".lg-table").forEach(fit); }
    }, true);
    window.addEventListener("hashchange", reveal);
    reveal();
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
