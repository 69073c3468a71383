extension PageAssets {
    /// The page's script, vanilla and hand-written: it calls the JSON API
    /// and builds the page with DOM methods. Document text only ever goes
    /// through `textContent` and text nodes.
    static let script = ##"""
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const state = {
    q: params.get("q") || "", offset: Number(params.get("offset") || 0) || 0, limit: 10,
    kinds: (params.get("kind") || "").split(",").filter(Boolean), root: params.get("root") || "",
    since: params.get("since") || "", before: params.get("before") || "", path: params.get("path") || "",
    strict: params.get("strict") === "1", fuzzy: params.get("fuzzy") === "1", month: params.get("month") || ""
  };
  let hits = [];
  let selected = -1;
  let previewMarks = [];
  let currentMark = -1;
  let searchGeneration = 0;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  async function api(path, query) {
    const url = path + "?" + query.toString();
    const headers = token ? { "Authorization": "Bearer " + token } : {};
    const response = await fetch(url, { headers });
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const error = (body && body.error) || { message: "the server answered " + response.status, code: "http" };
      throw error;
    }
    return body;
  }

  function searchParams(withPage) {
    const query = new URLSearchParams();
    query.set("q", state.q);
    if (withPage) { query.set("limit", String(state.limit)); query.set("offset", String(state.offset)); }
    if (state.kinds.length) query.set("kind", state.kinds.join(","));
    if (state.root) query.set("root", state.root);
    if (state.since) query.set("since", state.since);
    if (state.before) query.set("before", state.before);
    if (state.path) query.set("path", state.path);
    if (state.strict) query.set("strict", "1");
    if (state.fuzzy) query.set("fuzzy", "1");
    return query;
  }

  function remember() {
    const query = searchParams(false);
    if (state.offset) query.set("offset", String(state.offset));
    if (state.month) query.set("month", state.month);
    if (token) query.set("token", token);
    history.replaceState(null, "", "?" + query.toString());
  }

  // Text with the byte ranges [start, end) of its UTF-8 marked.
  function markedText(parent, text, ranges, collect) {
    const bytes = new TextEncoder().encode(text);
    const decoder = new TextDecoder();
    let position = 0;
    for (const range of ranges || []) {
      const start = range[0], end = range[1];
      if (start < position || end > bytes.length || start >= end) continue;
      parent.appendChild(document.createTextNode(decoder.decode(bytes.subarray(position, start))));
      const mark = el("mark", null, decoder.decode(bytes.subarray(start, end)));
      parent.appendChild(mark);
      if (collect) collect.push(mark);
      position = end;
    }
    parent.appendChild(document.createTextNode(decoder.decode(bytes.subarray(position))));
  }

  function formatSize(bytes) {
    if (bytes < 1024) return bytes + " B";
    const units = ["KB", "MB", "GB", "TB"];
    let value = bytes / 1024, unit = 0;
    while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
    return value.toFixed(value < 10 ? 1 : 0) + " " + units[unit];
  }

  function formatDate(iso) { return iso ? iso.slice(0, 10) : ""; }

  function showQueryError(error) {
    const box = $("query-error");
    $("query-error-message").textContent = error.position
      ? "Query error at character " + error.position + ": " + error.message
      : error.message + (error.hint ? " (" + error.hint + ")" : "");
    const where = $("query-error-where");
    where.textContent = "";
    if (error.position) {
      const chars = Array.from(state.q);
      const index = Math.min(error.position - 1, chars.length);
      where.appendChild(document.createTextNode(chars.slice(0, index).join("")));
      where.appendChild(el("mark", null, chars[index] !== undefined ? chars[index] : " "));
      where.appendChild(document.createTextNode(chars.slice(index + 1).join("")));
      const input = $("q");
      const prefix = chars.slice(0, index).join("");
      input.setSelectionRange(prefix.length, prefix.length + (chars[index] || "").length);
      input.setAttribute("aria-invalid", "true");
    }
    box.hidden = false;
  }

  function clearQueryError() {
    $("query-error").hidden = true;
    $("q").removeAttribute("aria-invalid");
  }

  function renderHits(response) {
    const list = $("results");
    list.textContent = "";
    hits = response.hits;
    selected = -1;
    list.setAttribute("start", String(response.offset + 1));
    hits.forEach((hit, number) => {
      const item = el("li", "hit");
      item.dataset.index = String(number);
      const heading = el("h3");
      const title = el("button", "title", hit.title || hit.inner_path || hit.path.split("/").pop());
      title.type = "button";
      title.addEventListener("click", () => { select(number); openPreview(hit); });
      heading.appendChild(title);
      item.appendChild(heading);
      const path = el("p", "path", hit.path);
      if (hit.inner_path) {
        path.appendChild(document.createTextNode(" \u203a "));
        path.appendChild(el("span", "inner", hit.inner_path));
      }
      item.appendChild(path);
      const meta = el("p", "meta");
      meta.appendChild(el("span", "badge", hit.kind));
      meta.appendChild(document.createTextNode(formatDate(hit.mtime) + " \u00b7 " + formatSize(hit.size) + (hit.language ? " \u00b7 " + hit.language : "")));
      if (!hit.all_words) {
        meta.appendChild(document.createTextNode(" \u00b7 "));
        meta.appendChild(el("span", "partial", "(some words)"));
      }
      item.appendChild(meta);
      const people = peopleLine(hit.metadata);
      if (people) item.appendChild(el("p", "meta people", people));
      const snippet = el("p", "snippet");
      markedText(snippet, hit.snippet, hit.matches);
      item.appendChild(snippet);
      list.appendChild(item);
    });
    const first = response.offset + 1, last = response.offset + hits.length;
    let status = hits.length ? "Hits " + first + "\u2013" + last : "No hits";
    if (response.total !== undefined && response.total !== null) status += " of " + response.total;
    status += " for \u201c" + response.query + "\u201d (" + response.elapsed_ms + " ms)";
    if (response.warnings.length) status += ". " + response.warnings.join("; ");
    $("status").textContent = status;
    const mean = $("did-you-mean");
    mean.textContent = "";
    const words = Object.keys(response.suggestions || {});
    if (words.length && !state.fuzzy) {
      mean.appendChild(document.createTextNode("No document has "));
      words.forEach((word) => {
        mean.appendChild(el("q", null, word));
        mean.appendChild(document.createTextNode("; did you mean"));
        response.suggestions[word].forEach((term) => {
          const button = el("button", null, term);
          button.type = "button";
          button.addEventListener("click", () => { replaceWord(word, term); });
          mean.appendChild(button);
        });
        mean.appendChild(document.createTextNode(". "));
      });
      mean.hidden = false;
    } else {
      mean.hidden = true;
    }
    const notes = $("notes-list");
    notes.textContent = "";
    (response.notes || []).forEach((note) => notes.appendChild(el("li", null, note)));
    $("notes").hidden = !(response.notes || []).length;
    const pager = $("pager");
    pager.hidden = !(response.offset > 0 || response.more);
    $("prev").disabled = response.offset === 0;
    $("next").disabled = !response.more;
    $("page-label").textContent = "Page " + (Math.floor(response.offset / state.limit) + 1);
  }

  function peopleLine(metadata) {
    if (!metadata) return "";
    const parts = [];
    if (metadata.from) parts.push("from " + metadata.from.join(", "));
    else if (metadata.authors) parts.push("by " + metadata.authors.join(", "));
    if (metadata.to) parts.push("to " + metadata.to.join(", "));
    return parts.join("  ");
  }

  function replaceWord(word, term) {
    state.q = state.q.split(word).join(term);
    $("q").value = state.q;
    state.offset = 0;
    run();
  }

  function facetGroup(title, counts, isActive, onChoose) {
    const group = el("section", "facet");
    group.appendChild(el("h3", null, title));
    const list = el("ul");
    counts.forEach((count) => {
      const item = el("li");
      if (onChoose) {
        const button = el("button");
        button.type = "button";
        button.setAttribute("aria-pressed", isActive(count.value) ? "true" : "false");
        button.appendChild(el("span", "value", count.value));
        button.appendChild(el("span", "count", count.count));
        button.title = count.value;
        button.addEventListener("click", () => onChoose(count.value));
        item.appendChild(button);
      } else {
        const line = el("span", "static");
        line.appendChild(el("span", "value", count.value));
        line.appendChild(el("span", "count", count.count));
        item.appendChild(line);
      }
      list.appendChild(item);
    });
    group.appendChild(list);
    return group;
  }

  function monthRange(month) {
    const [year, number] = month.split("-").map(Number);
    const next = number === 12 ? (year + 1) + "-01" : year + "-" + String(number + 1).padStart(2, "0");
    return [month + "-01", next + "-01"];
  }

  function renderFacets(facets) {
    const box = $("facets");
    box.textContent = "";
    if (facets.kinds.length) {
      box.appendChild(facetGroup("Kind", facets.kinds, (value) => state.kinds.includes(value), (value) => {
        state.kinds = state.kinds.includes(value) ? state.kinds.filter((kind) => kind !== value) : state.kinds.concat([value]);
        state.offset = 0; run();
      }));
    }
    if (facets.folders.length > 1 || state.root) {
      box.appendChild(facetGroup("Folder", facets.folders, (value) => state.root === value, (value) => {
        state.root = state.root === value ? "" : value; state.offset = 0; run();
      }));
    }
    if (facets.months.length) {
      const group = el("section", "facet");
      group.appendChild(el("h3", null, "Modified"));
      const bars = el("div", "histogram");
      bars.setAttribute("role", "group");
      bars.setAttribute("aria-label", "Documents by month of modification");
      const most = Math.max.apply(null, facets.months.map((month) => month.count));
      facets.months.forEach((month) => {
        const bar = el("button");
        bar.type = "button";
        bar.style.height = month.count ? Math.max(6, Math.round(100 * month.count / most)) + "%" : "0";
        bar.disabled = month.count === 0;
        bar.setAttribute("aria-label", month.value + ": " + month.count + " documents");
        bar.title = month.value + ": " + month.count;
        bar.setAttribute("aria-pressed", state.month === month.value ? "true" : "false");
        bar.addEventListener("click", () => {
          if (state.month === month.value) { state.month = ""; state.since = ""; state.before = ""; }
          else { state.month = month.value; [state.since, state.before] = monthRange(month.value); }
          $("since").value = state.since; $("before").value = state.before;
          state.offset = 0; run();
        });
        bars.appendChild(bar);
      });
      group.appendChild(bars);
      const range = el("div", "histogram-range");
      range.appendChild(el("span", null, facets.months[0].value));
      range.appendChild(el("span", null, facets.months[facets.months.length - 1].value));
      group.appendChild(range);
      box.appendChild(group);
    }
    if (facets.languages.length) box.appendChild(facetGroup("Language", facets.languages, null, null));
    const addField = (field) => (value) => {
      const clean = value.replace(/"/g, "").replace(/<[^>]*>/g, "").trim() || value.replace(/"/g, "");
      state.q = (state.q + " " + field + ':"' + clean + '"').trim();
      $("q").value = state.q; state.offset = 0; run();
    };
    if (facets.authors.length) box.appendChild(facetGroup("Author", facets.authors, () => false, addField("author")));
    if (facets.from.length) box.appendChild(facetGroup("From", facets.from, () => false, addField("from")));
    if (facets.capped) box.appendChild(el("p", "meta", "Counted the first " + facets.counted + " documents."));
    else if (!box.childNodes.length) box.appendChild(el("p", "meta", "No document has every word."));
    renderActiveFilters();
  }

  function renderActiveFilters() {
    const box = $("active-filters");
    box.textContent = "";
    const add = (label, clear) => {
      const button = el("button", null, label + " \u00d7");
      button.type = "button";
      button.setAttribute("aria-label", "Remove the filter " + label);
      button.addEventListener("click", () => { clear(); state.offset = 0; run(); });
      box.appendChild(button);
    };
    state.kinds.forEach((kind) => add("kind " + kind, () => { state.kinds = state.kinds.filter((other) => other !== kind); }));
    if (state.root) add("folder " + state.root, () => { state.root = ""; });
    if (state.since) add("since " + state.since, () => { state.since = ""; state.month = ""; $("since").value = ""; });
    if (state.before) add("before " + state.before, () => { state.before = ""; state.month = ""; $("before").value = ""; });
    if (state.path) add("path " + state.path, () => { state.path = ""; $("path").value = ""; });
  }

  async function run() {
    if (!state.q.trim()) return;
    const generation = ++searchGeneration;
    remember();
    clearQueryError();
    $("status").textContent = "Searching\u2026";
    try {
      const response = await api("/api/search", searchParams(true));
      if (generation !== searchGeneration) return;
      renderHits(response);
    } catch (error) {
      if (generation !== searchGeneration) return;
      $("results").textContent = "";
      $("pager").hidden = true;
      $("facets").textContent = "";
      $("status").textContent = error.code === "query" ? "The query has an error." : "Error: " + error.message;
      showQueryError(error);
      return;
    }
    try {
      const facets = await api("/api/facets", searchParams(false));
      if (generation === searchGeneration) renderFacets(facets);
    } catch (error) {
      if (generation === searchGeneration) $("facets").textContent = "";
    }
  }

  function select(number) {
    const items = $("results").children;
    if (!items.length) return;
    selected = Math.max(0, Math.min(number, items.length - 1));
    Array.from(items).forEach((item, index) => item.classList.toggle("selected", index === selected));
    const button = items[selected].querySelector("button.title");
    if (button) button.focus();
  }

  async function openPreview(hit) {
    const query = new URLSearchParams();
    query.set("path", hit.path);
    if (hit.path_bytes) { query.delete("path"); query.set("path_bytes", hit.path_bytes); }
    if (hit.inner_path) query.set("inner_path", hit.inner_path);
    query.set("q", state.q);
    const section = $("preview");
    section.hidden = false;
    document.querySelector(".layout").classList.remove("no-preview");
    $("preview-title").textContent = hit.title || hit.path.split("/").pop();
    $("preview-text").textContent = "Loading\u2026";
    try {
      const doc = await api("/api/document", query);
      const location = doc.inner_path ? doc.path + " \u203a " + doc.inner_path : doc.path;
      $("preview-meta").textContent = location + " \u00b7 " + doc.kind + " \u00b7 " + formatDate(doc.mtime) + " \u00b7 " + formatSize(doc.size)
        + (doc.truncated ? " \u00b7 first " + formatSize(new TextEncoder().encode(doc.text).length) + " shown" : "");
      const text = $("preview-text");
      text.textContent = "";
      previewMarks = [];
      markedText(text, doc.text, doc.matches, previewMarks);
      currentMark = -1;
      $("preview-count").textContent = previewMarks.length === 1 ? "1 match" : previewMarks.length + " matches";
      const open = $("preview-open");
      if (doc.file_available) {
        const file = new URLSearchParams();
        if (hit.path_bytes) file.set("path_bytes", hit.path_bytes); else file.set("path", doc.path);
        if (token) file.set("token", token);
        open.href = "/api/file?" + file.toString();
        open.hidden = false;
      } else {
        open.removeAttribute("href");
        open.hidden = true;
      }
      if (previewMarks.length) moveMark(1);
    } catch (error) {
      $("preview-text").textContent = "Error: " + error.message;
    }
  }

  function moveMark(step) {
    if (!previewMarks.length) return;
    if (currentMark >= 0) previewMarks[currentMark].classList.remove("current");
    currentMark = (currentMark + step + previewMarks.length) % previewMarks.length;
    const mark = previewMarks[currentMark];
    mark.classList.add("current");
    mark.scrollIntoView({ block: "center" });
    $("preview-count").textContent = "Match " + (currentMark + 1) + " of " + previewMarks.length;
  }

  function closePreview() {
    $("preview").hidden = true;
    document.querySelector(".layout").classList.add("no-preview");
    if (selected >= 0) select(selected);
  }

  async function loadState() {
    try {
      const info = await api("/api/state", new URLSearchParams());
      const footer = $("state");
      footer.textContent = "";
      footer.appendChild(el("p", null, info.documents + " documents (" + formatSize(info.indexed_bytes) + ") in "
        + info.folders.length + (info.folders.length === 1 ? " folder" : " folders") + "; index " + info.index + ", "
        + formatSize(info.file_size) + ", " + info.tokenizer + " tokenizer"
        + (info.last_run ? "; last updated " + info.last_run.replace("T", " ").replace("Z", " UTC") : "") + ". Petrel " + info.version + "."));
      const list = el("ul");
      info.folders.forEach((folder) => {
        list.appendChild(el("li", null, folder.path + ": " + folder.documents + " documents"
          + (folder.last_run ? ", updated " + formatDate(folder.last_run) : "")));
      });
      footer.appendChild(list);
    } catch (error) {
      $("state").textContent = "The index cannot be read: " + error.message;
    }
  }

  let suggestTimer = null;
  function suggest() {
    clearTimeout(suggestTimer);
    suggestTimer = setTimeout(async () => {
      const value = $("q").value;
      const match = /(\S+)$/.exec(value);
      const list = $("suggestions");
      if (!match || match[1].length < 2 || /[:"()*-]/.test(match[1])) { list.textContent = ""; return; }
      try {
        const query = new URLSearchParams();
        query.set("prefix", match[1]);
        const response = await api("/api/suggest", query);
        list.textContent = "";
        const head = value.slice(0, value.length - match[1].length);
        response.words.forEach((word) => {
          const option = document.createElement("option");
          option.value = head + word.word;
          list.appendChild(option);
        });
      } catch (error) { list.textContent = ""; }
    }, 150);
  }

  function typing(target) {
    return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("q").value = state.q;
    $("strict").checked = state.strict;
    $("fuzzy").checked = state.fuzzy;
    $("since").value = state.since;
    $("before").value = state.before;
    $("path").value = state.path;
    document.querySelector(".layout").classList.add("no-preview");
    $("search-form").addEventListener("submit", (event) => {
      event.preventDefault();
      state.q = $("q").value;
      state.strict = $("strict").checked;
      state.fuzzy = $("fuzzy").checked;
      state.since = $("since").value.trim();
      state.before = $("before").value.trim();
      state.path = $("path").value.trim();
      state.month = "";
      state.offset = 0;
      run();
    });
    $("q").addEventListener("input", suggest);
    $("prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - state.limit); run(); });
    $("next").addEventListener("click", () => { state.offset += state.limit; run(); });
    $("close-preview").addEventListener("click", closePreview);
    $("next-match").addEventListener("click", () => moveMark(1));
    $("prev-match").addEventListener("click", () => moveMark(-1));
    document.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape") {
        if (!$("preview").hidden) { closePreview(); event.preventDefault(); }
        return;
      }
      if (typing(event.target)) return;
      if (event.key === "/") { event.preventDefault(); $("q").focus(); $("q").select(); }
      else if (event.key === "j") { event.preventDefault(); select(selected + 1); }
      else if (event.key === "k") { event.preventDefault(); select(selected - 1); }
      else if (event.key === "n" && !$("preview").hidden) { event.preventDefault(); moveMark(1); }
      else if (event.key === "N" && !$("preview").hidden) { event.preventDefault(); moveMark(-1); }
      else if (event.key === "]" && !$("next").disabled && !$("pager").hidden) { $("next").click(); }
      else if (event.key === "[" && !$("prev").disabled && !$("pager").hidden) { $("prev").click(); }
    });
    loadState();
    // The index may change under the page (petrel-index --watch): its
    // state is read again every half minute.
    setInterval(loadState, 30000);
    if (state.q) run(); else $("q").focus();
  });
})();
"""##
}
