//! The audit report as one self-contained HTML page (`rewardbox audit --html`): the totals, every
//! finding with the completion that got through, and per task Tier 5's training curves (mean
//! reward and the judge's pass rate, step by step) as inline SVG.

use super::report::{Report, TaskReport};
use serde_json::Value;

/// Text safe inside HTML elements and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2rem;color:#1b1f24}\
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}\
.cards{display:flex;gap:1rem;flex-wrap:wrap}.card{border:1px solid #d0d7de;border-radius:6px;\
padding:.6rem 1rem;min-width:7rem}.card b{display:block;font-size:1.4rem}\
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #d0d7de;padding:.35rem;\
text-align:left;vertical-align:top}pre{white-space:pre-wrap;max-height:12rem;overflow:auto;\
background:#f6f8fa;padding:.4rem;margin:0}.exploit{color:#b42318}.unjudged{color:#bf8700}.task{margin-bottom:1.5rem}\
.legend span{margin-right:1rem}";

/// The page.
pub fn render(report: &Report) -> String {
    let s = &report.summary;
    let mut page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rewardbox audit</title>\
         <style>{STYLE}</style></head><body>\n<h1>rewardbox audit</h1>\n<div class=\"cards\">"
    );
    for (label, value) in [
        ("tasks", s.tasks),
        ("robust", s.robust_tasks),
        ("attacks", s.attacks),
        ("exploits", s.exploits),
        ("false rejections", s.false_rejections),
        ("weak tests", s.weak_tests),
        ("unscored", s.unscored),
        ("invalid", s.invalid_tasks),
    ] {
        page.push_str(&format!("<div class=\"card\"><b>{value}</b>{label}</div>"));
    }
    page.push_str("</div>\n<h2>Findings</h2>\n");
    findings(&mut page, &report.tasks);
    let trained: Vec<&TaskReport> = report.tasks.iter().filter(|t| t.tier5.is_some()).collect();
    if !trained.is_empty() {
        page.push_str(
            "<h2>Tier 5: GRPO against the verifier</h2>\n<p class=\"legend\">\
             <span style=\"color:#0969da\">&#9632; mean reward</span>\
             <span style=\"color:#bf8700\">&#9632; judge's pass rate</span>\
             <span style=\"color:#cf222e\">&#9632; exploits in the group</span>\
             <span style=\"color:#b42318\">| first exploit sampled</span></p>\n",
        );
        for task in trained {
            tier5(&mut page, task);
        }
    }
    page.push_str("</body></html>\n");
    page
}

fn findings(page: &mut String, tasks: &[TaskReport]) {
    let rows: Vec<String> = tasks
        .iter()
        .flat_map(|t| {
            let id = escape(t.id.as_deref().unwrap_or("?"));
            t.findings.iter().map(move |f| {
                let kind = serde_json::to_value(f.kind).unwrap_or(Value::Null);
                let family = serde_json::to_value(f.family).unwrap_or(Value::Null);
                format!(
                    "<tr><td>{id}</td><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{:.3}</td>\
                     <td><pre>{}</pre></td><td>{}</td></tr>",
                    kind.as_str().unwrap_or(""),
                    escape(kind.as_str().unwrap_or("")),
                    escape(family.as_str().unwrap_or("")),
                    escape(&f.attack),
                    f.score,
                    escape(&f.completion),
                    escape(&f.detail)
                )
            })
        })
        .collect();
    if rows.is_empty() {
        page.push_str("<p>None: every attack was refused and every right answer accepted.</p>\n");
        return;
    }
    page.push_str(
        "<table><tr><th>task</th><th>kind</th><th>family</th><th>attack</th><th>score</th>\
         <th>completion</th><th>detail</th></tr>\n",
    );
    for row in rows {
        page.push_str(&row);
        page.push('\n');
    }
    page.push_str("</table>\n");
}

/// A task's Tier 5 summary and its curves.
fn tier5(page: &mut String, task: &TaskReport) {
    let Some(t) = &task.tier5 else { return };
    let id = escape(task.id.as_deref().unwrap_or("?"));
    if let Some(error) = t.get("error").and_then(Value::as_str) {
        page.push_str(&format!(
            "<div class=\"task\"><h3>{id}</h3><p>{}</p></div>\n",
            escape(error)
        ));
        return;
    }
    let outcome = t.get("outcome").and_then(Value::as_str).unwrap_or("");
    page.push_str(&format!(
        "<div class=\"task\"><h3>{id}: <span class=\"{outcome}\">{outcome}</span></h3>\
         <p>{} steps, {} completions scored; reward {:.3}; judged by {}{}{}</p>\n",
        t["steps"],
        t["samples"],
        t["reward"].as_f64().unwrap_or(0.0),
        escape(t["judge"].as_str().unwrap_or("")),
        t.get("judge_power").map_or_else(String::new, |p| format!(
            " (power: a copy of the visible cases fails at least {} of its {} generated \
             inputs)",
            p["separating"], p["inputs"]
        )),
        t.get("choices")
            .and_then(Value::as_str)
            .map_or_else(String::new, |c| format!("; converged to {}", escape(c)))
    ));
    page.push_str(&chart(t));
    page.push_str(&format!(
        "<pre>{}</pre></div>\n",
        escape(t["completion"].as_str().unwrap_or(""))
    ));
}

/// Mean reward, judge pass rate and exploit rate against the step, in [0, 1].
fn chart(t: &Value) -> String {
    let (w, h, pad) = (640.0, 180.0, 28.0);
    let points = t["curve"].as_array().cloned().unwrap_or_default();
    let last = points.len().saturating_sub(1).max(1) as f64;
    let x = |step: f64| pad + step / last * (w - 2.0 * pad);
    let y = |v: f64| h - pad - v.clamp(0.0, 1.0) * (h - 2.0 * pad);
    let line = |field: &str| -> String {
        points
            .iter()
            .filter_map(|p| {
                Some(format!(
                    "{:.1},{:.1}",
                    x(p["step"].as_f64()?),
                    y(p[field].as_f64()?)
                ))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\" \
         aria-label=\"reward and judge pass rate per step\">\
         <rect x=\"{pad}\" y=\"{pad}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#d0d7de\"/>\
         <text x=\"2\" y=\"{}\" font-size=\"10\">1</text><text x=\"2\" y=\"{}\" font-size=\"10\">0</text>\
         <text x=\"{pad}\" y=\"{}\" font-size=\"10\">step 0</text><text x=\"{}\" y=\"{}\" font-size=\"10\">step {}</text>",
        w - 2.0 * pad,
        h - 2.0 * pad,
        pad + 4.0,
        h - pad,
        h - 8.0,
        w - pad - 40.0,
        h - 8.0,
        points.len().saturating_sub(1)
    );
    if let Some(step) = t.get("exploit_appeared_at").and_then(Value::as_f64) {
        svg.push_str(&format!(
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{pad}\" y2=\"{1}\" stroke=\"#b42318\" stroke-dasharray=\"3 3\"/>",
            x(step),
            h - pad
        ));
    }
    for (field, colour) in [
        ("mean_reward", "#0969da"),
        ("judge_pass_rate", "#bf8700"),
        ("exploit_rate", "#cf222e"),
    ] {
        svg.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
            line(field)
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;
    use crate::report::{Finding, Kind};
    use serde_json::json;

    #[test]
    fn findings_and_curves_are_on_the_page_escaped() {
        let mut task = TaskReport::invalid(Some("t<1>".into()), String::new());
        task.error = None;
        task.findings.push(Finding {
            attack: "tier5 (claim=spray)".into(),
            family: Family::Tier5,
            kind: Kind::Exploit,
            score: 1.0,
            completion: "<script>alert(1)</script> 42".into(),
            detail: "GRPO converged".into(),
        });
        task.tier5 = Some(
            json!({"outcome": "exploit", "steps": 3, "samples": 48, "reward": 1.0,
            "judge": "strict", "completion": "41 42", "exploit_appeared_at": 1,
            "curve": [{"step": 0, "mean_reward": 0.2, "judge_pass_rate": 0.1, "exploit_rate": 0.1},
                      {"step": 1, "mean_reward": 0.6, "judge_pass_rate": 0.0, "exploit_rate": 0.6},
                      {"step": 2, "mean_reward": 1.0, "judge_pass_rate": 0.0, "exploit_rate": 1.0}]}),
        );
        let page = render(&Report::new(vec![task]));
        assert!(page.contains("t&lt;1&gt;"));
        assert!(!page.contains("<script>"));
        assert!(page.contains("&lt;script&gt;"));
        // Mean reward, judge pass rate, exploit share.
        assert_eq!(page.matches("<polyline").count(), 3);
        assert!(page.contains("stroke-dasharray"));
        assert!(page.contains("<b>1</b>exploits"));
    }
}
