extension PageAssets {
    /// The page's style: one column in a narrow window, filters, results
    /// and preview side by side in a wide one; light and dark.
    static let style = ##"""
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #fbfbfc; --panel: #ffffff; --line: #d8dce3;
  --accent: #1f5fbf; --mark: #ffe58a; --error: #b3261e; font-family: system-ui, sans-serif; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e8ec; --muted: #a2a9b6; --bg: #15181d; --panel: #1d2128; --line: #353b46; --accent: #8ab4f8; --mark: #6b5a12; --error: #f2b8b5; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--panel); padding: .5rem; z-index: 2; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.top { padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
.top h1 { font-size: 1.2rem; margin: 0 0 .4rem; }
.box { display: flex; gap: .5rem; }
.box input { flex: 1; min-width: 0; font-size: 1.05rem; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
button { font: inherit; cursor: pointer; padding: .35rem .7rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); }
button:hover { border-color: var(--accent); }
button[aria-pressed="true"] { background: var(--accent); color: var(--bg); }
.help { color: var(--muted); font-size: .8rem; margin: .35rem 0 0; }
.options summary { cursor: pointer; color: var(--muted); font-size: .9rem; margin-top: .35rem; }
.option-grid { display: flex; flex-wrap: wrap; gap: .5rem 1rem; padding: .4rem 0; font-size: .9rem; }
.option-grid input[type=text] { background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 4px; padding: .15rem .3rem; }
.query-error { color: var(--error); margin-top: .4rem; }
.query-error p { margin: 0; }
.query-error pre { margin: .2rem 0 0; font-size: .95rem; white-space: pre-wrap; }
.query-error mark { background: var(--error); color: var(--bg); }
.layout { display: grid; grid-template-columns: 15rem minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; padding: 1rem; align-items: start; }
.layout.no-preview { grid-template-columns: 15rem minmax(0, 1fr); }
aside h2, .preview h2 { font-size: 1rem; margin: 0 0 .5rem; }
.facet { margin-bottom: 1rem; }
.facet h3 { font-size: .85rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 0 0 .3rem; }
.facet ul { list-style: none; margin: 0; padding: 0; }
.facet li { margin: .1rem 0; }
.facet li button { width: 100%; text-align: left; display: flex; justify-content: space-between; gap: .5rem; padding: .15rem .4rem; border-color: transparent; background: none; }
.facet li button .value { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.facet li button .count, .facet .static .count { color: var(--muted); font-variant-numeric: tabular-nums; }
.facet .static { display: flex; justify-content: space-between; padding: .15rem .4rem; }
.histogram { display: flex; align-items: flex-end; gap: 2px; height: 4rem; border-bottom: 1px solid var(--line); }
.histogram button { flex: 1; min-width: 3px; padding: 0; border: none; border-radius: 2px 2px 0 0; background: var(--accent); opacity: .75; }
.histogram button[aria-pressed="true"] { opacity: 1; outline: 2px solid var(--fg); }
.histogram-range { display: flex; justify-content: space-between; color: var(--muted); font-size: .75rem; }
.active-filters { font-size: .85rem; color: var(--muted); }
.active-filters button { font-size: .8rem; margin: .1rem; }
.results { list-style: none; padding: 0; margin: 0; }
.hit { padding: .6rem .7rem; margin-bottom: .6rem; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
.hit.selected { border-color: var(--accent); box-shadow: 0 0 0 1px var(--accent); }
.hit h3 { margin: 0; font-size: 1rem; }
.hit h3 button { border: none; background: none; padding: 0; color: var(--accent); text-align: left; font-weight: 600; }
.hit h3 button:hover { text-decoration: underline; }
.path { font-family: ui-monospace, monospace; font-size: .8rem; color: var(--muted); overflow-wrap: anywhere; margin: .15rem 0; }
.inner { color: var(--fg); }
.meta { font-size: .8rem; color: var(--muted); margin: .15rem 0; }
.badge { display: inline-block; border: 1px solid var(--line); border-radius: 4px; padding: 0 .3rem; margin-right: .3rem; }
.partial { font-style: italic; }
.snippet { margin: .3rem 0 0; overflow-wrap: anywhere; }
mark { background: var(--mark); color: inherit; border-radius: 2px; }
mark.current { outline: 2px solid var(--accent); }
.pager { display: flex; gap: .75rem; align-items: center; justify-content: center; margin: 1rem 0; }
.did-you-mean button { margin-left: .3rem; }
.notes { font-size: .85rem; color: var(--muted); margin-bottom: .6rem; }
.notes ul { margin: .2rem 0; padding-left: 1.2rem; }
.preview { position: sticky; top: .5rem; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .7rem; max-height: calc(100vh - 1rem); display: flex; flex-direction: column; }
.preview-head { display: flex; justify-content: space-between; gap: .5rem; align-items: start; }
.preview-tools { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; font-size: .85rem; margin: .2rem 0 .5rem; }
.preview-text { flex: 1; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font-size: .85rem; border-top: 1px solid var(--line); padding-top: .5rem; min-height: 10rem; }
.state { padding: .6rem 1rem 1.2rem; color: var(--muted); font-size: .85rem; border-top: 1px solid var(--line); }
.state ul { margin: .3rem 0 0; padding-left: 1.2rem; }
@media (max-width: 900px) {
  .layout, .layout.no-preview { grid-template-columns: minmax(0, 1fr); padding: .6rem; }
  .preview { position: static; max-height: none; }
  #filters { order: 2; }
  .preview { order: 0; }
  main { order: 1; }
}
"""##
}
