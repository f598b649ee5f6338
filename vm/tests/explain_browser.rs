//! The `explain --format html` page in a real headless browser (Chromium): it loads with no
//! console message (no error, no warning), and after stepping forward N times (the page's own
//! `#step=N`: N presses of the → key) it shows the same event and the same path register as
//! the N-th line of `vmrun --watch N` for the same run. A screenshot is kept for review in
//! `target/test-artifacts/`.
//!
//! Chromium is found on the PATH (`chromium`, `chromium-browser`, `google-chrome`); `.ci/run`
//! installs Debian's. Without one the test says so and passes, unless `VMRUN_REQUIRE_BROWSER`
//! is set (as `.ci/run` does), when a missing browser is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The browser, if one is installed.
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    if found.is_none() {
        assert!(
            std::env::var_os("VMRUN_REQUIRE_BROWSER").is_none(),
            "VMRUN_REQUIRE_BROWSER is set but no Chromium is installed \
             (apt-get install chromium)"
        );
        eprintln!("no Chromium on the PATH: the browser test is skipped");
    }
    found
}

/// Runs the headless browser on `url` with `extra` arguments: (stdout, stderr).
fn headless(browser: &str, url: &str, extra: &[&str]) -> (String, String) {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            // Containers often have a small /dev/shm, where Chromium would crash.
            "--disable-dev-shm-usage",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            "--window-size=1400,1100",
        ])
        .args(extra)
        .arg(url)
        .output()
        .expect("the browser runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The page's console messages, as Chromium logs them.
fn console_messages(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

/// The text of the element with id `id` in a dumped DOM (the elements the step-through
/// writes hold plain text).
fn element_text(dom: &str, id: &str) -> String {
    let open = format!("id=\"{id}\">");
    let start = dom.find(&open).unwrap_or_else(|| panic!("no #{id}")) + open.len();
    let end = start + dom[start..].find('<').expect("a closing tag");
    dom[start..end]
        .replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&amp;", "&")
}

fn vmrun(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_vmrun"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("vmrun runs")
}

#[test]
fn the_console_check_sees_errors() {
    let Some(browser) = chromium() else { return };
    let dir = std::env::temp_dir().join(format!("browser-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("bad.html");
    std::fs::write(
        &page,
        "<html><body><script>undefinedFunction();</script></body></html>",
    )
    .unwrap();
    let (_, stderr) = headless(
        browser,
        &format!("file://{}", page.display()),
        &["--dump-dom"],
    );
    assert!(
        console_messages(&stderr)
            .iter()
            .any(|l| l.contains("Uncaught ReferenceError")),
        "the check must see a script error: {stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stepping_the_page_shows_what_watch_prints() {
    let Some(browser) = chromium() else { return };
    let artefacts = root().join("target").join("test-artifacts");
    std::fs::create_dir_all(&artefacts).unwrap();
    let cases: [(&str, &[&str], &[&str]); 3] = [
        (
            "programs/demo/roy_srikant_fig1.c",
            &["--path-ends", "backedge"],
            &["--profile=bl", "--path-ends", "backedge"],
        ),
        (
            "programs/demo/delia_kblpp_fig3.c",
            &["--path-ends", "backedge", "--step-mode", "kbl", "--k", "4"],
            &["--profile=kbl:4", "--path-ends", "backedge"],
        ),
        ("programs/nqueens.c", &[], &["--profile=bl"]),
    ];
    for (file, explain_args, watch_args) in cases {
        let stem = Path::new(file).file_stem().unwrap().to_string_lossy();
        let page = artefacts.join(format!("explain-{stem}.html"));
        let mut args = vec!["explain", file, "--format", "html", "-o"];
        let page_arg = page.to_str().unwrap().to_string();
        args.push(&page_arg);
        args.extend_from_slice(explain_args);
        let made = vmrun(&args);
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
        let url = format!("file://{}", page.display());

        // It loads with no console message at all.
        let (dom, stderr) = headless(browser, &url, &["--dump-dom"]);
        assert!(dom.contains("data-ready=\"yes\""), "{file}: the script ran");
        assert_eq!(console_messages(&stderr), Vec::<&str>::new(), "{file}");

        // Steps to check: the first, one early, and some that show a register (an edge).
        let mut probe = watch_args.to_vec();
        probe.extend_from_slice(&["--tier-up", "0", "--watch", "80", file]);
        let first = String::from_utf8_lossy(&vmrun(&probe).stderr).into_owned();
        let mut steps = vec![1usize, 5];
        steps.extend(
            first
                .lines()
                .enumerate()
                .filter(|(_, l)| l.contains(", r = "))
                .map(|(i, _)| i + 1)
                .step_by(7)
                .take(4),
        );
        let mut registers_compared = 0;
        for n in steps {
            let mut watch = watch_args.to_vec();
            let limit = n.to_string();
            watch.extend_from_slice(&["--tier-up", "0", "--watch", &limit, file]);
            let watched = vmrun(&watch);
            let lines: Vec<String> = String::from_utf8_lossy(&watched.stderr)
                .lines()
                .map(str::to_string)
                .collect();
            let expected = &lines[n - 1];
            let (dom, stderr) = headless(browser, &format!("{url}#step={n}"), &["--dump-dom"]);
            assert_eq!(console_messages(&stderr), Vec::<&str>::new(), "{file}");
            assert_eq!(element_text(&dom, "step-index"), n.to_string());
            assert_eq!(&element_text(&dom, "event"), expected, "{file}, step {n}");
            // The register the page shows is the one `--watch` printed last for this frame.
            if let Some(at) = expected.rfind(", r = ") {
                let r: String = expected[at + 6..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                assert_eq!(element_text(&dom, "register"), r, "{file}, step {n}");
                registers_compared += 1;
            }
        }
        assert!(registers_compared >= 2, "{file}: the register was compared");
        let shot = artefacts.join(format!("explain-{stem}.png"));
        let screenshot = format!("--screenshot={}", shot.display());
        headless(browser, &format!("{url}#step=12"), &[&screenshot]);
        assert!(shot.exists(), "a screenshot at {}", shot.display());
    }
}
