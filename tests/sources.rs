//! Tools read from server source: a walked directory's `.ts`/`.js` files that register tools are
//! linted like manifests, and every finding points at the words in the source file.

mod common;

use serde_json::Value;

fn lint_json(dir: &std::path::Path, args: &[&str], stdin: Option<&str>) -> Value {
    let mut all = vec!["lint", "--no-config", "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = common::run(dir, &all, stdin);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

/// Writes each `(path, text)` under `dir`, making its folders.
fn write_files(dir: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// The text the first finding of `code` in `file` underlines.
fn underlined(document: &Value, code: &str, file: &str) -> String {
    let text = std::fs::read_to_string(common::root().join(file)).unwrap();
    let finding = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code && d["file"] == file)
        .unwrap();
    let offset = finding["span"]["offset"].as_u64().unwrap() as usize;
    let length = finding["span"]["length"].as_u64().unwrap() as usize;
    text[offset..offset + length].to_string()
}

/// Asserts that each of `expected` is one of `places`.
fn includes(places: &[String], expected: &[&str]) {
    for place in expected {
        assert!(
            places.iter().any(|found| found == place),
            "{place} not in {places:?}"
        );
    }
}

/// `file:line:column code` of each finding.
fn places(document: &Value) -> Vec<String> {
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {}",
                d["file"].as_str().unwrap(),
                d["span"]["start"]["line"],
                d["span"]["start"]["column"],
                d["code"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_typescript_server_is_linted_where_its_tools_are_written() {
    let document = lint_json(common::root(), &["fixtures/sources/typescript"], None);
    // helpers.ts has no registration keyword; near-misses.ts has one readable tool, clean.
    assert_eq!(document["summary"]["files"], 2);
    assert_eq!(document["summary"]["tools"], 3);
    assert_eq!(
        places(&document),
        [
            "fixtures/sources/typescript/server.ts:11:34 TC209",
            "fixtures/sources/typescript/server.ts:15:7 TC404",
            "fixtures/sources/typescript/server.ts:15:7 TC405",
        ]
    );
    // The span is the word in the `.ts` file.
    let text =
        std::fs::read_to_string(common::root().join("fixtures/sources/typescript/server.ts"))
            .unwrap();
    let span = &document["diagnostics"][0]["span"];
    let offset = span["offset"].as_u64().unwrap() as usize;
    let length = span["length"].as_u64().unwrap() as usize;
    assert_eq!(&text[offset..offset + length], "ALWAYS");

    let (_, human, _) = common::run(
        common::root(),
        &[
            "lint",
            "--no-config",
            "fixtures/sources/typescript/server.ts",
        ],
        None,
    );
    insta::assert_snapshot!(human);
}

/// The tools read from source are the tools the SDK would list: `diff` against the listing
/// written by hand from the SDK's conversion finds nothing the model would read differently.
#[test]
fn the_tools_read_are_those_the_server_lists() {
    let (code, stdout, stderr) = common::run(
        common::root(),
        &[
            "diff",
            "--no-config",
            "fixtures/sources/server.listing.json",
            "fixtures/sources/typescript/server.ts",
        ],
        None,
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("2 unchanged"), "{stdout}");
    assert!(
        stdout.contains("no change in what the model reads"),
        "{stdout}"
    );
}

#[test]
fn a_walk_reads_source_that_registers_tools_outside_dependencies() {
    let dir = common::scratch("sources-walk");
    let register = "server.registerTool('t', { description: 'Does ALWAYS t.' }, async () => 1);\n";
    write_files(
        &dir,
        &[
            ("src/server.ts", register),
            ("src/tools.mjs", register),
            ("src/types.d.ts", register),
            ("src/util.ts", "export const x = 'ALWAYS';\n"),
            ("node_modules/dep/index.js", register),
        ],
    );
    let document = lint_json(&dir, &["."], None);
    assert_eq!(
        common::files_of(&document),
        ["src/server.ts", "src/tools.mjs"]
    );
    // Turned off, a walk leaves source files alone; a file named is still read.
    std::fs::write(dir.join("toolcheck.yaml"), "source-files: false\n").unwrap();
    let (code, _, stderr) = common::run(&dir, &["lint", "."], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no files to lint"), "{stderr}");
    let (code, stdout, _) = common::run(
        &dir,
        &["lint", "--output-format", "concise", "src/server.ts"],
        None,
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("src/server.ts:1:47: error: TC209"),
        "{stdout}"
    );
    // Standard input is read as the language its name says.
    let document = lint_json(&dir, &["--stdin-filename", "a.ts", "-"], Some(register));
    assert_eq!(places(&document), ["a.ts:1:41 TC207", "a.ts:1:47 TC209"]);
}

#[test]
fn comments_in_source_suppress_as_yaml_comments_do() {
    let dir = common::scratch("sources-suppress");
    let text = "server.registerTool('a', {\n  // toolcheck: ignore[TC209] -- quoted from the API\n  description: 'Does ALWAYS ' +\n    'a. NEVER b.',\n}, cb);\nserver.registerTool('b', { description: 'Does ALWAYS b.' }, cb);\n";
    std::fs::write(dir.join("server.ts"), text).unwrap();
    let document = lint_json(&dir, &["--select", "TC209", "server.ts"], None);
    // Both words of `a`'s description, on two lines, are covered; `b`'s is not.
    assert_eq!(places(&document), ["server.ts:6:47 TC209"]);
    let suppressed = document["suppressed"].as_array().unwrap();
    assert_eq!(suppressed.len(), 2, "{suppressed:?}");
    // The footer's hint shows the comment as source writes it.
    let (_, human, _) = common::run(&dir, &["lint", "--no-config", "server.ts"], None);
    assert!(
        human.contains("`// toolcheck: ignore[TC209]` on its line or the line above"),
        "{human}"
    );
}

#[test]
fn values_imported_by_relative_path_are_linted_at_their_use() {
    let dir = common::scratch("sources-imports");
    let server = "import * as schemas from \"./schemas.js\";\nimport { DESCRIPTION } from \"./text\";\nserver.registerTool(\"search\", {\n  description: DESCRIPTION,\n  inputSchema: schemas.Search,\n}, cb);\n";
    let schemas = "import { z } from \"zod\";\nexport const Search = { query: z.string().describe(\"This tool will ALWAYS find it.\") };\n";
    let text = "export const DESCRIPTION = \"Searches the notes. NEVER edits them.\";\n";
    write_files(
        &dir,
        &[
            ("src/server.ts", server),
            ("src/schemas.ts", schemas),
            ("src/text.ts", text),
        ],
    );
    // The walk lints the file that registers; each finding is at the name that brings the
    // words in, where the file linted can be edited.
    let document = lint_json(&dir, &["--select", "TC209", "."], None);
    assert_eq!(common::files_of(&document), ["src/server.ts"]);
    assert_eq!(
        places(&document),
        ["src/server.ts:4:16 TC209", "src/server.ts:5:16 TC209"]
    );
}

#[test]
fn a_python_server_s_imports_are_linted_at_their_use_and_large_files_are_not_read() {
    let dir = common::scratch("sources-python-imports");
    let server = "from mcp.server.fastmcp import FastMCP\nfrom .text import DESCRIPTION\n\
                  from .vendored import BIG\n\nmcp = FastMCP(\"s\")\n\n\
                  @mcp.tool(description=DESCRIPTION)\ndef search(q: str) -> str:\n    return q\n\n\
                  @mcp.tool(description=BIG)\ndef fetch(url: str) -> str:\n    return url\n";
    // Over the 1 MiB read for imports: a vendored bundle, not where words are written.
    let vendored = format!(
        "BIG = \"This tool will ALWAYS fetch.\"\n{}",
        "# padding\n".repeat(110_000)
    );
    write_files(
        &dir,
        &[
            ("srv/__init__.py", ""),
            ("srv/server.py", server),
            (
                "srv/text.py",
                "DESCRIPTION = \"This tool will ALWAYS search.\"\n",
            ),
            ("srv/vendored.py", &vendored),
        ],
    );
    let document = lint_json(&dir, &["--select", "TC209", "."], None);
    assert_eq!(common::files_of(&document), ["srv/server.py"]);
    // One finding, at the name that brings the words in; `fetch` is left out.
    assert_eq!(places(&document), ["srv/server.py:7:23 TC209"]);
    assert_eq!(document["summary"]["tools"], 1, "{document}");
}

#[test]
fn a_python_server_is_linted_where_its_tools_are_written() {
    let document = lint_json(common::root(), &["fixtures/sources/python"], None);
    // FastMCP's and the SDK's decorators, and the low-level server's `types.Tool`.
    assert_eq!(document["summary"]["files"], 3);
    assert_eq!(document["summary"]["tools"], 8);
    let places = places(&document);
    // The docstring's word, the decorator's name argument, a parameter of the signature.
    includes(
        &places,
        &[
            "fixtures/sources/python/server.py:33:20 TC209",
            "fixtures/sources/python/server.py:38:16 TC503",
            "fixtures/sources/python/server.py:20:5 TC405",
            "fixtures/sources/python/fastmcp_server.py:14:5 TC404",
            // A FastMCP description is the cleaned docstring, its words still where they are.
            "fixtures/sources/python/fastmcp_server.py:22:40 TC209",
        ],
    );
    assert_eq!(
        underlined(&document, "TC209", "fixtures/sources/python/server.py"),
        "ALWAYS"
    );

    let (_, human, _) = common::run(
        common::root(),
        &[
            "lint",
            "--no-config",
            "--select",
            "TC209,TC207",
            "fixtures/sources/python/server.py",
        ],
        None,
    );
    insta::assert_snapshot!(human);
}

#[test]
fn a_go_server_is_linted_where_its_tools_are_written() {
    let document = lint_json(common::root(), &["fixtures/sources/go"], None);
    // The hand-written servers and the sample of GitHub's (its helper file registers nothing).
    assert_eq!(document["summary"]["files"], 4);
    assert_eq!(document["summary"]["tools"], 11);
    let places = places(&document);
    includes(
        &places,
        &[
            // A word of a constant joined with `+`, a property added after the schema literal.
            "fixtures/sources/go/server.go:14:18 TC209",
            "fixtures/sources/go/server.go:26:20 TC405",
            // A helper's tool: the description is the argument of its call.
            "fixtures/sources/go/server.go:36:40 TC207",
            // A property another file of the package adds: at the call that adds it.
            "fixtures/sources/go/github/gists.go:26:17 TC404",
            // mcp-go: a description's word; a typed handler's field without a `jsonschema` tag.
            "fixtures/sources/go/mcpgo.go:52:56 TC209",
            "fixtures/sources/go/typed.go:15:2 TC405",
        ],
    );
    assert_eq!(
        underlined(&document, "TC209", "fixtures/sources/go/server.go"),
        "ALWAYS"
    );

    let (_, human, _) = common::run(
        common::root(),
        &[
            "lint",
            "--no-config",
            "--select",
            "TC209,TC405",
            "fixtures/sources/go/server.go",
        ],
        None,
    );
    insta::assert_snapshot!(human);
}

#[test]
fn go_comments_suppress_and_a_walk_leaves_go_tests_and_vendor_out() {
    let dir = common::scratch("sources-go");
    let server = "package main\n\nimport \"github.com/modelcontextprotocol/go-sdk/mcp\"\n\nvar a = &mcp.Tool{\n\tName: \"a\",\n\t// toolcheck: ignore[TC209] -- quoted from the API\n\tDescription: \"Does ALWAYS a.\",\n\tInputSchema: json.RawMessage(`{\"type\":\"object\"}`),\n}\n\nvar b = &mcp.Tool{Name: \"b\", Description: \"Does ALWAYS b.\", InputSchema: json.RawMessage(`{\"type\":\"object\"}`)}\n";
    write_files(
        &dir,
        &[
            ("server.go", server),
            ("server_test.go", server),
            ("vendor/example.com/dep/server.go", server),
        ],
    );
    let document = lint_json(&dir, &["--select", "TC209", "."], None);
    assert_eq!(places(&document), ["server.go:12:49 TC209"]);
    assert_eq!(document["suppressed"].as_array().unwrap().len(), 1);
    let (_, human, _) = common::run(&dir, &["lint", "--no-config", "server.go"], None);
    assert!(
        human.contains("`// toolcheck: ignore[TC209]` on its line or the line above"),
        "{human}"
    );
}

#[test]
fn python_comments_suppress_and_a_walk_reads_python() {
    let dir = common::scratch("sources-python");
    let server = "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\ndef a():\n    # toolcheck: ignore[TC209] -- quoted from the API\n    \"\"\"Does ALWAYS a.\"\"\"\n\n@mcp.tool()\ndef b():\n    \"\"\"Does ALWAYS b.\"\"\"\n";
    write_files(
        &dir,
        &[
            ("src/server.py", server),
            ("src/util.py", "WORD = 'ALWAYS'\n"),
            (".venv/lib/python3.12/site-packages/dep/server.py", server),
        ],
    );
    let document = lint_json(&dir, &["--select", "TC209", "."], None);
    assert_eq!(places(&document), ["src/server.py:11:13 TC209"]);
    assert_eq!(document["suppressed"].as_array().unwrap().len(), 1);
    let (_, human, _) = common::run(&dir, &["lint", "--no-config", "src/server.py"], None);
    assert!(
        human.contains("`# toolcheck: ignore[TC209]` on its line or the line above"),
        "{human}"
    );
}

/// A harness extension's tools (`pi.registerTool({ … })` with TypeBox schemas): the snippet
/// and guidelines are linted as such, on their words in the `.ts` file, and what is read is
/// what TypeBox and the harness make of the extension (`extension.listing.json`, written by
/// running it with TypeBox 1.4.3).
#[test]
fn a_harness_extension_is_linted_with_its_snippets_and_guidelines() {
    let file = "fixtures/sources/harness/extension.ts";
    let document = lint_json(common::root(), &[file], None);
    assert_eq!(document["summary"]["tools"], 2);
    let places = places(&document);
    includes(
        &places,
        &[
            // A snippet's period, a guideline's word, a property of a schema another file holds.
            "fixtures/sources/harness/extension.ts:14:40 TC202",
            "fixtures/sources/harness/extension.ts:27:23 TC209",
            "fixtures/sources/harness/extension.ts:27:22 TC205",
            "fixtures/sources/harness/extension.ts:16:15 TC404",
        ],
    );
    assert_eq!(underlined(&document, "TC209", file), "Always");
    assert_eq!(underlined(&document, "TC404", file), "searchSchema");

    let (code, stdout, stderr) = common::run(
        common::root(),
        &[
            "diff",
            "--no-config",
            "fixtures/sources/harness/extension.listing.json",
            file,
        ],
        None,
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("2 unchanged"), "{stdout}");

    let (_, human, _) = common::run(
        common::root(),
        &["lint", "--no-config", "--select", "TC202,TC209", file],
        None,
    );
    insta::assert_snapshot!(human);
}

/// `--fix` on source edits the words of a literal where they are written, and holds a fix
/// that would edit anything else: a value another file holds, a template's substitution, an
/// escape, a schema made from a call.
#[test]
fn fixes_in_source_edit_literals_only() {
    let dir = common::scratch("sources-fix");
    let extension = r#"import { Type } from "typebox";
import { SNIPPET } from "./text.js";
const NOUN = "notes";
pi.registerTool({
  name: "search_notes",
  description: "Search the notes. Use it when the user asks about a note. Not for files.",
  promptSnippet: "Search notes by words.",
  promptGuidelines: ["Use this tool before asking again.", "Prefer this tool to \"grep\" for notes."],
  parameters: Type.Object({ q: Type.String({ description: "Words." }) }),
});
pi.registerTool({
  name: "add_note",
  description: "Add a note. Use it when the user says remember. Not for files.",
  promptSnippet: SNIPPET,
  parameters: Type.Object({}),
});
pi.registerTool({
  name: "drop_note",
  description: "Drop a note. Use it when the user says forget. Not for files.",
  promptSnippet: `Drop ${NOUN} by id.`,
  parameters: Type.Object({}),
});
pi.registerTool({
  name: "list_notes",
  description: "List the notes. Use it when the user asks what is noted. Not for files.",
  promptSnippet: "List every note\x2e",
  parameters: Type.Object({}),
});
"#;
    write_files(
        &dir,
        &[
            ("extension.ts", extension),
            (
                "text.ts",
                "export const SNIPPET = \"Add a note to the notes.\";\n",
            ),
        ],
    );
    let select = ["--select", "TC202,TC204"];
    let before = places(&lint_json(
        &dir,
        &[&select[..], &["extension.ts"]].concat(),
        None,
    ));
    assert_eq!(
        before,
        [
            "extension.ts:7:40 TC202",
            "extension.ts:8:27 TC204",
            "extension.ts:8:68 TC204",
            "extension.ts:14:18 TC202",
            "extension.ts:20:18 TC202",
            "extension.ts:26:34 TC202",
        ]
    );
    let (code, _, stderr) = common::run(
        &dir,
        &[
            &["lint", "--no-config", "--fix", "-q"][..],
            &select,
            &["extension.ts"],
        ]
        .concat(),
        None,
    );
    assert_eq!((code, stderr.as_str()), (0, "fixed 3 findings\n"));
    let after = std::fs::read_to_string(dir.join("extension.ts")).unwrap();
    let expected = extension
        .replacen("\"Search notes by words.\"", "\"Search notes by words\"", 1)
        .replacen("Use this tool before", "Use search_notes before", 1)
        .replacen("Prefer this tool to", "Prefer search_notes to", 1);
    assert_eq!(after, expected);
    // What is left: the snippets whose period is not written in this file's literal.
    let left = places(&lint_json(
        &dir,
        &[&select[..], &["extension.ts"]].concat(),
        None,
    ));
    assert_eq!(
        left,
        [
            "extension.ts:14:18 TC202",
            "extension.ts:20:18 TC202",
            "extension.ts:26:34 TC202",
        ]
    );
}

/// Two registrations of one name in server source are a duplicate when they run together;
/// in two functions, branches or cases they are variants the server picks between.
#[test]
fn a_duplicate_name_in_source_is_one_that_runs_twice() {
    let dir = common::scratch("sources-duplicates");
    let server = r#"server.registerTool("a", { description: "A." }, cb);
if (safe) {
  server.registerTool("b", { description: "B, safe." }, cb);
} else {
  server.registerTool("b", { description: "B." }, cb);
}
const c = safe ? { name: "c", inputSchema: { type: "object", properties: {} } } : { name: "c", inputSchema: { type: "object" } };
function one() { server.registerTool("d", { description: "D." }, cb); }
function two() { server.registerTool("d", { description: "D, two." }, cb); }
server.registerTool("a", { description: "A again." }, cb);
switch (mode) {
  case 1: server.registerTool("e", { description: "E." }, cb); break;
  default: server.registerTool("e", { description: "E, default." }, cb);
}
if (x) server.tool("f", cb); else server.tool("f", cb);
function three() {
  server.registerTool("g", { description: "G." }, cb);
  server.registerTool("g", { description: "G." }, cb);
}
"#;
    write_files(&dir, &[("server.ts", server)]);
    let document = lint_json(&dir, &["--select", "TC502", "server.ts"], None);
    assert_eq!(document["summary"]["tools"], 14);
    assert_eq!(
        places(&document),
        ["server.ts:10:21 TC502", "server.ts:18:23 TC502"]
    );
}
