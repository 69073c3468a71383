extension PageAssets {
    /// The page's markup: landmarks, labels and live regions; the script
    /// fills it.
    static let html = ##"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Petrel search</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<a class="skip" href="#results">Skip to results</a>
<header class="top">
  <h1>Petrel</h1>
  <form id="search-form" role="search" autocomplete="off">
    <label for="q" class="visually-hidden">Search the index</label>
    <div class="box">
      <input id="q" name="q" type="search" placeholder="Search your documents (press / to come here)" list="suggestions"
             aria-describedby="query-error help" spellcheck="false">
      <button type="submit">Search</button>
    </div>
    <datalist id="suggestions"></datalist>
    <div id="query-error" class="query-error" role="alert" hidden>
      <p id="query-error-message"></p>
      <pre id="query-error-where" aria-hidden="true"></pre>
    </div>
    <details class="options">
      <summary>Options</summary>
      <div class="option-grid">
        <label><input type="checkbox" id="strict"> every word required</label>
        <label><input type="checkbox" id="fuzzy"> also the nearest words</label>
        <label>Modified since <input type="text" id="since" placeholder="2024-05-01 or 7d" size="12"></label>
        <label>before <input type="text" id="before" placeholder="2025-01-01" size="12"></label>
        <label>Path glob <input type="text" id="path" placeholder="*.md" size="12"></label>
      </div>
    </details>
    <p id="help" class="help">"exact phrase", -word, a OR b, title:word, author:smith, from:ann. Keys: / search, j/k results, Enter preview, n/N matches, Esc close, [ ] pages.</p>
  </form>
</header>
<div class="layout">
  <aside id="filters" aria-labelledby="filters-heading">
    <h2 id="filters-heading">Filters</h2>
    <p id="active-filters" class="active-filters"></p>
    <div id="facets"></div>
  </aside>
  <main id="main">
    <p id="status" role="status" aria-live="polite"></p>
    <p id="did-you-mean" class="did-you-mean" hidden></p>
    <details id="notes" class="notes" hidden><summary>How the query was read</summary><ul id="notes-list"></ul></details>
    <ol id="results" class="results" tabindex="-1" aria-label="Results"></ol>
    <nav id="pager" class="pager" aria-label="Pages" hidden>
      <button type="button" id="prev">Previous page</button>
      <span id="page-label"></span>
      <button type="button" id="next">Next page</button>
    </nav>
  </main>
  <section id="preview" class="preview" aria-labelledby="preview-title" hidden>
    <div class="preview-head">
      <h2 id="preview-title"></h2>
      <button type="button" id="close-preview" aria-label="Close the preview">Close</button>
    </div>
    <p id="preview-meta" class="meta"></p>
    <p class="preview-tools">
      <span id="preview-count" aria-live="polite"></span>
      <button type="button" id="prev-match" aria-label="Previous match">&#8593; match</button>
      <button type="button" id="next-match" aria-label="Next match">&#8595; match</button>
      <a id="preview-open" target="_blank" rel="noopener noreferrer">Open the file</a>
    </p>
    <pre id="preview-text" class="preview-text" tabindex="0" aria-label="The document's text"></pre>
  </section>
</div>
<footer id="state" class="state" aria-label="The index"></footer>
</body>
</html>
"""##
}
