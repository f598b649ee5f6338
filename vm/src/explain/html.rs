//! `vmrun explain --format html`: one self-contained web page for the projector: the source,
//! each function's CFG picture (coloured by heat), its numbering table, and a step-through of
//! a recorded run. No network: the styles, the script, the pictures and the data are all in
//! the file.
//!
//! The step-through replays the events `vmrun --watch N` prints for the same run
//! ([`crate::modes::watch::WatchLine`]): `→`/`Space` step forward, `←` back, `Home` to the
//! start, `End` to the last event. Each step highlights the current block in the picture and
//! the current line in the source, shows the path register, and adds every path that ends to
//! the table of counts. `page.html#step=N` opens the page after N steps (each one a key press
//! the page sends itself), which is how the browser test reads the register after N steps.

use std::fmt::Write as _;

use super::{counted_paths, dot, path_lines, Explained};

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's styles.
const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { background: #234; color: #fff; padding: 8px 16px; }
header h1 { font-size: 20px; margin: 0; }
header p { margin: 4px 0 0 0; font-size: 13px; color: #cde; }
main { display: grid; grid-template-columns: minmax(300px, 1fr) minmax(400px, 1.4fr); gap: 12px; padding: 12px; }
section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px 12px; overflow: auto; }
h2 { font-size: 16px; margin: 4px 0 8px 0; }
pre, code, .mono { font-family: ui-monospace, monospace; font-size: 13px; }
#source { max-height: 70vh; overflow: auto; position: relative; }
#source div { white-space: pre; padding: 0 4px; }
#source div.current { background: #ffe066; outline: 1px solid #c90; }
#source span.ln { color: #999; display: inline-block; width: 3em; text-align: right; margin-right: 1em; }
.tabs button { margin-right: 4px; }
.tabs button.active { font-weight: bold; background: #234; color: #fff; }
.picture svg { max-width: 100%; height: auto; }
.picture .current-block polygon, .picture .current-block rect, .picture .current-block path { stroke: #d00 !important; stroke-width: 4px !important; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border-bottom: 1px solid #eee; padding: 2px 8px; text-align: left; }
td.num { text-align: right; font-family: ui-monospace, monospace; }
#stepper { position: sticky; top: 0; z-index: 5; margin: 8px 12px 0 12px; box-shadow: 0 2px 6px rgba(0,0,0,0.15); }
#stepper .row { display: flex; gap: 24px; }
#stepper .row > div { flex: 1; }
#stepper .controls button { font-size: 15px; padding: 4px 12px; }
#event { font-family: ui-monospace, monospace; font-size: 15px; padding: 6px; background: #eef; margin: 6px 0; min-height: 1.4em; }
#register { font-size: 22px; font-weight: bold; font-family: ui-monospace, monospace; }
#counts { display: block; max-height: 8em; overflow: auto; }
#log { max-height: 8em; overflow: auto; font-size: 12px; color: #555; }
#log div.current { color: #000; font-weight: bold; }
"#;

/// The page's script: renders the data and runs the step-through.
const SCRIPT: &str = r##"
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
let fn = 0;
let step = 0;
const $ = (id) => document.getElementById(id);

function showFunction(i) {
  fn = i;
  document.querySelectorAll(".tabs button").forEach((b, j) => b.classList.toggle("active", j === i));
  document.querySelectorAll(".function").forEach((d, j) => { d.style.display = j === i ? "" : "none"; });
  highlight();
}

function blockName(f, id) {
  return data.functions[f].cfg.blocks[id].name;
}

function highlightBlock(f, name) {
  document.querySelectorAll(".current-block").forEach((g) => g.classList.remove("current-block"));
  if (name === null) return;
  const pic = document.getElementById("picture-" + f);
  if (!pic) return;
  // Graphviz: <g class="node"><title>b3</title>...; layout-rs: a shape, then its <text>.
  for (const t of pic.querySelectorAll("title")) {
    if (t.textContent === name && t.parentNode.classList.contains("node")) {
      t.parentNode.classList.add("current-block");
      return;
    }
  }
  for (const t of pic.querySelectorAll("text")) {
    if (t.textContent.trim() === name) {
      const g = t.parentNode;
      g.classList.add("current-block");
      return;
    }
  }
}

function highlight() {
  const s = step > 0 ? data.steps[step - 1] : null;
  document.querySelectorAll("#source div.current").forEach((d) => d.classList.remove("current"));
  if (s && s.line) {
    const d = document.getElementById("L" + s.line);
    if (d) {
      d.classList.add("current");
      // Scroll the source box only, never the page.
      const box = $("source");
      box.scrollTop = Math.max(0, d.offsetTop - box.clientHeight / 2);
    }
  }
  let f = fn;
  if (s) {
    const i = data.functions.findIndex((x) => x.name === s.func);
    if (i >= 0 && i !== fn) { f = i; fn = i; showFunction(i); return; }
  }
  highlightBlock(f, s && s.block !== null && s.func === data.functions[f].name ? blockName(f, s.block) : null);
}

function render() {
  const total = data.steps.length;
  $("step-index").textContent = String(step);
  $("step-total").textContent = String(total);
  const s = step > 0 ? data.steps[step - 1] : null;
  $("event").textContent = s ? s.text :
    total === 0 ? "(no recorded run: a CFG file does not run)" : "(before the first event)";
  $("register").textContent = s && s.register !== null ? String(s.register) : "-";
  // Counts of the paths ended so far, per function.
  const counts = new Map();
  for (let i = 0; i < step; i++) {
    const e = data.steps[i];
    if (e.path !== null) {
      const key = e.func + " path " + e.path;
      counts.set(key, (counts.get(key) || 0) + 1);
    }
  }
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  $("counts").innerHTML = rows.length === 0 ? "<tr><td>no path has ended yet</td></tr>" :
    rows.map(([k, c]) => "<tr><td>" + k + "</td><td class=num>" + c + "</td></tr>").join("");
  const log = $("log");
  log.innerHTML = "";
  const from = Math.max(0, step - 8);
  for (let i = from; i < Math.min(total, step + 3); i++) {
    const d = document.createElement("div");
    d.textContent = (i + 1) + ": " + data.steps[i].text;
    if (i === step - 1) d.className = "current";
    log.appendChild(d);
  }
  highlight();
}

function go(n) {
  step = Math.max(0, Math.min(data.steps.length, n));
  render();
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "ArrowRight" || ev.key === " ") { go(step + 1); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft") { go(step - 1); ev.preventDefault(); }
  else if (ev.key === "Home") { go(0); ev.preventDefault(); }
  else if (ev.key === "End") { go(data.steps.length); ev.preventDefault(); }
});
$("next").addEventListener("click", () => go(step + 1));
$("prev").addEventListener("click", () => go(step - 1));
$("reset").addEventListener("click", () => go(0));
document.querySelectorAll(".tabs button").forEach((b, j) => b.addEventListener("click", () => showFunction(j)));
showFunction(0);
render();
const m = /step=(\d+)/.exec(location.hash);
if (m) {
  for (let i = 0; i < Number(m[1]); i++) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
  }
}
document.body.dataset.ready = "yes";
"##;

/// The page. Fails only if a picture cannot be drawn.
pub fn render(x: &Explained) -> Result<String, String> {
    let mut out = String::new();
    let title = format!("vmrun explain {}", x.file);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&title)
    );
    let _ = writeln!(
        out,
        "<header><h1>{}</h1><p>Ball-Larus path profiling, step by step{}{}</p></header>",
        esc(&x.file),
        x.step_mode.as_ref().map_or(String::new(), |m| format!(
            "; recorded run: --profile={m} --tier-up 0"
        )),
        x.heat_from
            .as_ref()
            .map_or(String::new(), |h| format!("; heat from {h}"))
    );
    // The step-through.
    out.push_str(
        "<section id=\"stepper\"><h2>Step through the run</h2>\
         <div class=\"controls\"><button id=\"reset\">|&larr; start</button> \
         <button id=\"prev\">&larr; back</button> <button id=\"next\">next &rarr;</button> \
         step <span id=\"step-index\">0</span> of <span id=\"step-total\">0</span> \
         (keys: &rarr; or space, &larr;, Home, End)</div>\
         <div id=\"event\"></div>\
         <div>path register r = <span id=\"register\">-</span></div>\
         <div class=\"row\"><div><h2>Paths ended so far</h2><table id=\"counts\"></table></div>\
         <div><h2>Events</h2><div id=\"log\"></div></div></div></section>\n",
    );
    out.push_str("<main>\n");

    // The source.
    out.push_str("<section><h2>Source</h2><div id=\"source\" class=\"mono\">");
    match &x.source {
        Some(src) => {
            for (i, line) in src.lines().enumerate() {
                let n = i + 1;
                let _ = write!(
                    out,
                    "<div id=\"L{n}\"><span class=\"ln\">{n}</span>{}</div>",
                    esc(line)
                );
            }
        }
        None => out.push_str("<div>(a CFG file: no source)</div>"),
    }
    out.push_str("</div></section>\n");

    // One panel per function: picture, numbering, paths.
    out.push_str("<section><div class=\"tabs\">");
    for f in &x.functions {
        let _ = write!(out, "<button>{}</button>", esc(&f.name));
    }
    out.push_str("</div>\n");
    for (i, f) in x.functions.iter().enumerate() {
        let svg = dot::to_svg(&dot::render_function(f))?;
        let svg = match svg.find("<svg") {
            Some(at) => &svg[at..],
            None => svg.as_str(),
        };
        let c = &f.cfg;
        let _ = write!(
            out,
            "<div class=\"function\"><h2>{} : {} static paths ({} path ends, {} numbering)</h2>\
             <div class=\"picture\" id=\"picture-{i}\">{svg}</div>",
            esc(&f.name),
            c.num_paths,
            esc(&c.path_ends),
            esc(&c.numbering)
        );
        out.push_str(
            "<h2>Numbering</h2><table><tr><th>block</th><th>lines</th><th>numPaths</th></tr>",
        );
        for b in &c.blocks {
            let lines = f
                .block_lines
                .get(b.id as usize)
                .copied()
                .flatten()
                .map_or_else(String::new, crate::profile::text::span);
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{lines}</td><td class=num>{}</td></tr>",
                esc(&b.name),
                b.num_paths
            );
        }
        out.push_str("</table><table><tr><th>edge</th><th>val</th><th>probe (plain)</th><th>chord increment</th></tr>");
        for e in &c.edges {
            let _ = write!(
                out,
                "<tr><td>{} &rarr; {}{}</td><td class=num>{}</td><td class=mono>{}</td><td class=mono>{}</td></tr>",
                esc(&c.blocks[e.from as usize].name),
                esc(&c.blocks[e.to as usize].name),
                if e.back { " (back)" } else { "" },
                e.value,
                esc(&e.plain),
                esc(&e.increment)
            );
        }
        out.push_str("</table><h2>Path ids</h2><table>");
        for p in &c.paths {
            let _ = write!(
                out,
                "<tr><td class=num>{}</td><td class=mono>{}</td></tr>",
                p.id,
                esc(&path_lines(f, p))
            );
        }
        out.push_str("</table>");
        let counted = counted_paths(f);
        if !counted.is_empty() {
            out.push_str("<h2>Counted in the whole run</h2><table>");
            for (id, count, text) in counted.iter().take(20) {
                let _ = write!(
                    out,
                    "<tr><td class=num>{count}</td><td>path {id}</td><td class=mono>{}</td></tr>",
                    esc(text)
                );
            }
            out.push_str("</table>");
        }
        if let Some(table) = &c.kiter_table {
            let _ = write!(
                out,
                "<h2>{}-iteration numbering (Roy &amp; Srikant, Table 1)</h2><pre>{}</pre>",
                x.k,
                esc(table)
            );
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");

    out.push_str("</main>\n");
    let json = serde_json::to_string(x).map_err(|e| e.to_string())?;
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"data\">{}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        json.replace("</", "<\\/")
    );
    Ok(out)
}
