//! A host's MCP config (`--host-config`): the servers Claude Code (`.mcp.json`), Claude
//! Desktop (`claude_desktop_config.json`), Cursor (`.cursor/mcp.json`) or VS Code
//! (`.vscode/mcp.json`) would start, with their variables expanded as that host expands them.
//!
//! | host | servers under | variables | environment a server inherits |
//! |---|---|---|---|
//! | claude-code | `mcpServers` | `${VAR}`, `${VAR:-default}` | all of it |
//! | claude-desktop | `mcpServers` | none | `HOME LOGNAME PATH SHELL TERM USER` (the MCP SDK's default) |
//! | cursor | `mcpServers` | `${env:VAR}`, `${userHome}`, `${workspaceFolder}` | all of it |
//! | vscode | `servers` | `${env:VAR}`, `${userHome}`, `${workspaceFolder}` (`${input:…}` cannot be answered here) | all of it |

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Inherit, Launch, Server};
use crate::error::{Error, Result};
use crate::parse::Node;
use crate::parse::source::SourceFile;

/// The MCP SDK's `getDefaultEnvironment()` on POSIX: what a server started by Claude Desktop
/// inherits.
const SDK_DEFAULT_ENV: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/// The hosts whose configs toolcheck reads, by target profile name.
pub const HOSTS: &[&str] = &["claude-code", "claude-desktop", "cursor", "vscode"];

/// A host config, read.
#[derive(Debug)]
pub struct HostConfig {
    /// The target profile of the host (`claude-code`, …).
    pub host: String,
    /// Every server, in the order written; a server the config leaves unusable is an error
    /// of its own, so the others still run.
    pub servers: Vec<std::result::Result<Server, Error>>,
    /// Servers the config turns off (`"disabled": true`).
    pub disabled: Vec<String>,
}

/// Reads `path` as the config of `host` (or of the host its name says).
pub fn read(path: &Path, host: Option<&str>) -> Result<HostConfig> {
    let text = crate::read::read_text(path, "host config")?;
    let file = SourceFile::new(path.display().to_string(), text);
    let host = match host {
        Some(host) if HOSTS.contains(&host) => host.to_string(),
        Some(host) => {
            return Err(
                Error::new(format!("toolcheck cannot read `{host}`'s config"))
                    .with_help(format!("the hosts it reads: {}", HOSTS.join(", "))),
            );
        }
        None => host_of(path).map(str::to_string).ok_or_else(|| {
            Error::new(format!(
                "cannot tell which host reads `{}` from its name",
                path.display()
            ))
            .with_help(format!("name it: `--host {}`", HOSTS.join("|")))
        })?,
    };
    // VS Code's and Cursor's configs are JSON with comments.
    let text = without_comments(&file.text);
    let root = crate::parse::json::parse(&text).map_err(|error| {
        Error::at(
            &file,
            error.span,
            format!("invalid host config: {}", error.message),
        )
    })?;
    let key = if host == "vscode" {
        "servers"
    } else {
        "mcpServers"
    };
    let Some(entries) = root.get(key).and_then(Node::as_object) else {
        let at = root.entry(key).map_or(0..0, |entry| entry.value.span());
        return Err(Error::at(
            &file,
            at,
            format!("a {host} config lists its servers in an object `{key}`"),
        )
        .with_help(format!(
            "write `{{\"{key}\": {{\"NAME\": {{\"command\": \"...\", \"args\": [...]}}}}}}`"
        )));
    };
    let project = project_dir(path, &host);
    let reader = Reader {
        file: &file,
        host: &host,
        project: &project,
    };
    let mut servers = Vec::new();
    let mut disabled = Vec::new();
    for entry in entries {
        if entry.value.get("disabled").and_then(Node::as_bool) == Some(true) {
            disabled.push(entry.key.to_string());
            continue;
        }
        servers.push(reader.server(&entry.key, &entry.value));
    }
    Ok(HostConfig {
        host,
        servers,
        disabled,
    })
}

/// The host whose config file this is, by its name and folder.
fn host_of(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|folder| folder.to_str());
    match (folder, name) {
        (_, ".mcp.json") => Some("claude-code"),
        (_, "claude_desktop_config.json") => Some("claude-desktop"),
        (Some(".cursor"), "mcp.json") => Some("cursor"),
        (Some(".vscode"), "mcp.json") => Some("vscode"),
        _ => None,
    }
}

/// The folder the host treats as the project: the config's own, or the one above `.cursor/`
/// or `.vscode/`.
fn project_dir(path: &Path, host: &str) -> PathBuf {
    let dir = crate::read::globs::absolute(path.parent().unwrap_or(Path::new(".")));
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    match host {
        "cursor" | "vscode" => dir.parent().map(Path::to_path_buf).unwrap_or(dir),
        _ => dir,
    }
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    host: &'a str,
    project: &'a Path,
}

impl Reader<'_> {
    fn server(&self, name: &str, node: &Node) -> Result<Server> {
        if node.as_object().is_none() {
            return Err(self.error(node, format!("server `{name}`: expected an object")));
        }
        let kind =
            match node.get("type") {
                None => None,
                Some(kind) => Some(kind.as_str().ok_or_else(|| {
                    self.error(kind, format!("server `{name}`: `type` is a string"))
                })?),
            };
        let remote = match kind {
            Some("stdio") => false,
            Some("http" | "sse" | "streamable-http" | "streamableHttp") => true,
            Some(other) => {
                return Err(self
                    .error(
                        node.get("type").unwrap_or(node),
                        format!("server `{name}`: unknown type `{other}`"),
                    )
                    .with_help("`stdio`, `http` or `sse`"));
            }
            None => node.get("url").is_some() && node.get("command").is_none(),
        };
        let launch = if remote {
            let url = self.string(name, node, "url")?;
            Launch::Url {
                url: self.expand(name, node.get("url").unwrap_or(node), &url)?,
                headers: self.pairs(name, node, "headers")?,
            }
        } else {
            let program = self.string(name, node, "command")?;
            let program = self.expand(name, node.get("command").unwrap_or(node), &program)?;
            let mut args = Vec::new();
            if let Some(list) = node.get("args") {
                let items = list.as_array().ok_or_else(|| {
                    self.error(
                        list,
                        format!("server `{name}`: `args` is a list of strings"),
                    )
                })?;
                for item in items {
                    let arg = item.as_str().ok_or_else(|| {
                        self.error(
                            item,
                            format!("server `{name}`: `args` is a list of strings"),
                        )
                    })?;
                    args.push(self.expand(name, item, arg)?);
                }
            }
            let cwd = match node.get("cwd") {
                Some(cwd) => {
                    let written = cwd.as_str().ok_or_else(|| {
                        self.error(cwd, format!("server `{name}`: `cwd` is a string"))
                    })?;
                    Some(self.project.join(self.expand(name, cwd, written)?))
                }
                // Claude Desktop starts servers wherever it runs; the others in the project.
                None if self.host == "claude-desktop" => None,
                None => Some(self.project.to_path_buf()),
            };
            Launch::Command {
                program,
                args,
                env: self.pairs(name, node, "env")?,
                inherit: match self.host {
                    "claude-desktop" => Inherit::Only(SDK_DEFAULT_ENV),
                    _ => Inherit::All,
                },
                cwd,
            }
        };
        // Claude Code: `alwaysLoad: true` keeps the server's tools loaded whatever
        // ENABLE_TOOL_SEARCH says.
        let always_load = match node.get("alwaysLoad") {
            None => false,
            Some(flag) => flag.as_bool().ok_or_else(|| {
                self.error(
                    flag,
                    format!("server `{name}`: `alwaysLoad` is `true` or `false`"),
                )
            })?,
        };
        Ok(Server {
            name: Some(name.to_string()),
            launch,
            always_load,
        })
    }

    fn string(&self, name: &str, node: &Node, key: &str) -> Result<String> {
        match node.get(key) {
            Some(value) => value
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| self.error(value, format!("server `{name}`: `{key}` is a string"))),
            None => Err(self.error(node, format!("server `{name}` has no `{key}`"))),
        }
    }

    /// `env` or `headers`: an object of strings, each expanded.
    fn pairs(&self, name: &str, node: &Node, key: &str) -> Result<Vec<(String, String)>> {
        let Some(value) = node.get(key) else {
            return Ok(Vec::new());
        };
        let entries = value.as_object().ok_or_else(|| {
            self.error(
                value,
                format!("server `{name}`: `{key}` is an object of strings"),
            )
        })?;
        let mut pairs = Vec::new();
        for entry in entries {
            let text = entry.value.as_str().ok_or_else(|| {
                self.error(
                    &entry.value,
                    format!("server `{name}`: `{key}.{}` is a string", entry.key),
                )
            })?;
            pairs.push((
                entry.key.to_string(),
                self.expand(name, &entry.value, text)?,
            ));
        }
        Ok(pairs)
    }

    /// `text` with the host's variables expanded; a variable that has no value is an error.
    fn expand(&self, name: &str, node: &Node, text: &str) -> Result<String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            let Some(len) = rest[start..].find('}') else {
                break;
            };
            out.push_str(&rest[..start]);
            let variable = &rest[start + 2..start + len];
            match self.variable(variable) {
                Some(value) => out.push_str(&value),
                None if self.host == "claude-desktop" => out.push_str(&rest[start..=start + len]),
                None => {
                    return Err(self
                        .error(
                            node,
                            format!("server `{name}`: `${{{variable}}}` has no value here"),
                        )
                        .with_help(match variable.strip_prefix("input:") {
                            Some(_) => "VS Code asks the user for an input; toolcheck cannot: \
                                        write the value, or use `${env:NAME}` and set NAME"
                                .to_string(),
                            None => "set the variable in toolcheck's environment".to_string(),
                        }));
                }
            }
            rest = &rest[start + len + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    fn variable(&self, variable: &str) -> Option<String> {
        let home = || {
            std::env::var("HOME")
                .or_else(|_| std::env::var("USERPROFILE"))
                .ok()
        };
        match self.host {
            "claude-code" => {
                let (key, default) = match variable.split_once(":-") {
                    Some((key, default)) => (key, Some(default)),
                    None => (variable, None),
                };
                std::env::var(key)
                    .ok()
                    .or_else(|| default.map(str::to_string))
            }
            "cursor" | "vscode" => match variable {
                "userHome" => home(),
                "workspaceFolder" => Some(self.project.display().to_string()),
                "workspaceFolderBasename" => self
                    .project
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned()),
                "pathSeparator" | "/" => Some(std::path::MAIN_SEPARATOR.to_string()),
                _ => std::env::var(variable.strip_prefix("env:")?).ok(),
            },
            _ => None,
        }
    }

    fn error(&self, node: &Node, message: String) -> Error {
        Error::at(self.file, node.span(), message)
    }
}

/// JSON with comments (`//`, `/* */`) and trailing commas, as VS Code and Cursor read it, made
/// JSON: each of those bytes becomes a space, so offsets stay those of the file.
fn without_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let mut in_string = false;
    // The last comma outside strings, until a value follows it.
    let mut comma: Option<usize> = None;
    while i < bytes.len() {
        let byte = bytes[i];
        if in_string {
            match byte {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (byte, bytes.get(i + 1)) {
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            (b'/', Some(b'*')) => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |at| i + 2 + at + 2);
                for byte in &mut out[i..end] {
                    if *byte != b'\n' {
                        *byte = b' ';
                    }
                }
                i = end;
                continue;
            }
            (b'"', _) => {
                in_string = true;
                comma = None;
            }
            (b',', _) => comma = Some(i),
            (b'}' | b']', _) => {
                if let Some(at) = comma.take() {
                    out[at] = b' ';
                }
            }
            (byte, _) if byte.is_ascii_whitespace() => {}
            _ => comma = None,
        }
        i += 1;
    }
    // Only ASCII bytes outside strings were replaced by spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_become_spaces_and_strings_stay() {
        let text = "{\n  // a comment\n  \"a\": \"//not\", /* b */\n  \"c\": [1, 2,],\n}\n";
        let json = without_comments(text);
        assert_eq!(json.len(), text.len());
        let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(value["a"], "//not");
        assert_eq!(value["c"], serde_json::json!([1, 2]));
    }

    #[test]
    fn hosts_are_told_by_name_and_folder() {
        assert_eq!(host_of(Path::new("p/.mcp.json")), Some("claude-code"));
        assert_eq!(host_of(Path::new(".cursor/mcp.json")), Some("cursor"));
        assert_eq!(host_of(Path::new("x/.vscode/mcp.json")), Some("vscode"));
        assert_eq!(host_of(Path::new("mcp.json")), None);
        assert_eq!(
            host_of(Path::new("claude_desktop_config.json")),
            Some("claude-desktop")
        );
    }
}
